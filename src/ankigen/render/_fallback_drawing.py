"""The second renderer: ziamath, for the few constructs matplotlib mathtext cannot draw.

ziamath (pure Python: latex2mathml turns TeX into MathML, ziamath lays it out
with the bundled STIX Two Math font) draws under/over-braces, matrices, cases
and boxes. It never fails on an unknown command: latex2mathml turns ``\\foo``
into the letters "foo". So every command is checked against what latex2mathml
really knows before ziamath sees the formula, and environments against a
short list that ziamath lays out well. ``render_fallback`` is the whole way
in: check, adjust for ziamath, draw, and size like mathtext's images.
"""

from __future__ import annotations

import functools
import re
import warnings
import xml.etree.ElementTree as ET

from ankigen.render import _tex_syntax
from ankigen.render._formula_image import DRAW_SIZE, MATH_SCALE, FormulaError, RenderedFormula
from ankigen.syntax.tex_macros import unknown_command

#: Commands that send a formula to this renderer (mathtext has none of them).
TRIGGERS = frozenset(
    {
        "\\underbrace",
        "\\overbrace",
        "\\begin",
        "\\boxed",
        "\\stackrel",
        "\\xrightarrow",
        "\\xleftarrow",
        "\\cfrac",
        "\\underbracket",
        "\\overbracket",
    }
)

#: Environments ziamath lays out well.
ENVIRONMENTS = frozenset(
    {
        "matrix",
        "pmatrix",
        "bmatrix",
        "Bmatrix",
        "vmatrix",
        "Vmatrix",
        "smallmatrix",
        "cases",
        "aligned",
        "align*",
        "array",
        "split",
    }
)

#: Commands latex2mathml knows but that have no place in a card image
#: (colour defeats night mode; definitions, links, tags and raw boxes).
_DENIED = frozenset(
    {
        "\\color",
        "\\colorbox",
        "\\fcolorbox",
        "\\textcolor",
        "\\href",
        "\\newcommand",
        "\\renewcommand",
        "\\newenvironment",
        "\\def",
        "\\DeclareMathOperator",
        "\\tag",
        "\\tag*",
        "\\unicode",
        "\\verb",
        "\\class",
        "\\style",
        "\\raise",
        "\\lower",
        "\\moveleft",
        "\\moveright",
    }
)


class FallbackError(ValueError):
    """The fallback renderer refuses or fails to draw a formula; str() names the construct."""


@functools.cache
def known_commands() -> frozenset[str]:
    """Every control word latex2mathml converts, minus the denied ones."""
    from latex2mathml import commands as c
    from latex2mathml import symbols_parser

    known: set[str] = set(symbols_parser.SYMBOLS)
    for value in vars(c).values():
        if isinstance(value, str):
            known.add(value)
        elif isinstance(value, tuple | list | set | frozenset | dict):
            known.update(v for v in value if isinstance(v, str))
    return frozenset(k for k in known if k.startswith("\\")) - _DENIED


def knows(commands: list[str]) -> bool:
    """True when every command is one this renderer draws faithfully."""
    known = known_commands()
    return all(cmd in known for cmd in commands)


def check(commands: list[str], environments: list[str]) -> None:
    """Raise FallbackError naming the first command or environment not drawn faithfully."""
    known = known_commands()
    for cmd in commands:
        if cmd not in known:
            raise FallbackError(unknown_command(cmd))
    for env in environments:
        if env not in ENVIRONMENTS:
            raise FallbackError(f"unsupported environment {{{env}}}")


def render(tex: str, *, display: bool, size: float) -> tuple[bytes, float, float, float]:
    """Draw checked TeX: (svg bytes, width, height, depth) with sizes in units of ``size``."""
    with warnings.catch_warnings():  # ziamath 0.13 uses importlib.resources.path
        warnings.simplefilter("ignore", DeprecationWarning)
        from ziamath.config import config
        from ziamath.zmath import Latex

        from ankigen.render import _ziamath_styles

        _ziamath_styles.install()  # the same layout without a deep copy per node

    old_svg2 = config.svg2
    config.svg2 = False  # xlink:href, readable by older web views too
    try:
        math = Latex(tex, size=size, inline=not display, margin=0)
        svg = math.svgxml()
    except Exception as exc:  # ziamath raises anything from KeyError to IndexError
        raise FallbackError(f"ziamath cannot lay out this formula ({type(exc).__name__})") from exc
    finally:
        config.svg2 = old_svg2
    bbox = math.node.bbox
    width = bbox.xmax - bbox.xmin
    height = bbox.ymax - bbox.ymin
    depth = max(0.0, -bbox.ymin)
    if width <= 0 or height <= 0:
        raise FallbackError("the formula draws nothing")
    data = ET.tostring(svg, encoding="unicode").encode("utf-8")
    return data, width / size, height / size, depth / size


_CASES = re.compile(r"\\begin\{cases\}.*?\\end\{cases\}", re.S)


def render_fallback(tex: str, *, display: bool) -> RenderedFormula:
    """Draw TeX with ziamath once every command and environment in it is checked.

    Raises FormulaError naming the first construct not drawn faithfully.
    """
    environments = _tex_syntax.environments(tex)
    # latex2mathml knows \le, \implies... natively; only drop the sizing switches
    tex = _tex_syntax.rewrite(tex, {})
    # ziamath sets the columns of cases almost touching ("1 x > 0"): add TeX's quad
    tex = _CASES.sub(lambda m: m.group(0).replace("&", "&\\quad "), tex)
    try:
        check(_tex_syntax.commands(tex), environments)
        svg, width, height, depth = render(tex, display=display, size=DRAW_SIZE)
    except FallbackError as exc:
        raise FormulaError(str(exc)) from None
    scale = MATH_SCALE
    return RenderedFormula(svg, width * scale, height * scale, depth * scale, renderer="ziamath")
