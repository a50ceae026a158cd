"""Formulas to deterministic SVG images, and cloze-in-math for image mode.

How a formula is drawn
----------------------
1. ``tex_problem`` checks what both math modes need: balanced braces, paired
   ``\\begin``/``\\end``, and cloze markers that Anki reads as the author meant.
2. A few macros mathtext lacks but that have an exact mathtext spelling are
   rewritten token by token (``\\le`` -> ``\\leq``, ``\\tfrac`` -> ``\\frac``,
   ``\\implies`` -> ``\\Longrightarrow``, ``\\lVert`` -> ``\\Vert``...), and pure
   sizing switches (``\\displaystyle``, ``\\big``, ``\\limits``) are dropped.
   ``\\text{...}`` needs no rewrite: mathtext 3.11 has it and keeps its spaces.
3. matplotlib mathtext (the STIX fontset, glyphs as paths) draws every
   formula it can: it is the renderer the format names and its errors name
   the failing construct. Display formulas get TeX's display style first
   (``display_style``: an outermost ``\\frac`` becomes ``\\dfrac``).
4. Only a formula that uses a construct mathtext has no way to draw at all
   (``\\underbrace``, ``\\overbrace``, ``\\begin{bmatrix}``/``cases``/..., ``\\boxed``,
   ``\\stackrel``, ``\\xrightarrow``, ``\\cfrac``), or a big operator (``\\sum``,
   ``\\int``...: mathtext has no display size for them and sets their limits
   under them even inline), goes to ziamath, a pure-Python
   MathML layout engine, *after* every command in it has been checked against
   what latex2mathml knows. ziamath would otherwise draw ``\\foo`` as the
   letters "foo". A mathtext failure never falls back: an unknown command in a
   plain formula is reported as such instead of being drawn by the lenient
   renderer. Rewriting ``\\underbrace`` into mathtext primitives was rejected:
   mathtext cannot draw a stretched brace, and matrices would need a table
   layout of our own.

Both engines draw STIX (mathtext's STIX fontset, ziamath's STIX Two Math), so
the two look alike; both are sized by the same em (``MATH_SCALE`` times the
card's text), so they sit equally in text.

Sizes are reported in em of the card font: an ``<img>`` given ``width: Wem``
and ``vertical-align: -Dem`` sits on the text baseline at the text's size.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path

from ankigen.render import _fallback, _highlight, _tex, mathtext_svg
from ankigen.render.tex import DRAW_SIZE as _SIZE
from ankigen.render.tex import FONTSET as _FONTSET
from ankigen.render.tex import (  # re-exported: the public formula API in one place
    MATH_SCALE,
    RENDER_SETTINGS,
    ClozeVariants,
    FormulaError,
    RenderedFormula,
    cloze_variants,
    formula_img_html,
    math_cloze_html,
    tex_problem,
)

__all__ = [
    "RENDER_SETTINGS",
    "ClozeVariants",
    "FormulaError",
    "RenderedFormula",
    "cloze_variants",
    "formula_img_html",
    "math_cloze_html",
    "render_formula",
    "tex_problem",
]

#: Drawn at TextToPath.FONT_SCALE (100), so the size parse below and the glyph
#: parse inside TextPath are the same call and the second is an lru_cache hit.
_PROP = FontProperties(size=_SIZE, math_fontfamily=_FONTSET)


# --- rendering --------------------------------------------------------------


def render_formula(tex: str, *, display: bool, highlight: Sequence[str] = ()) -> RenderedFormula:
    """Draw TeX (no cloze markers) as deterministic SVG bytes; raise FormulaError.

    ``highlight`` names parts of ``tex`` (a cloze's gap, or what it reveals) to
    draw in the cloze colour, in bold; only mathtext draws them so. The same
    TeX and settings give the same bytes on every run.
    """
    problem = tex_problem(tex)
    if problem is not None:
        raise FormulaError(problem)
    if _tex.find_clozes(tex):
        raise FormulaError("cloze markers must be split off with cloze_variants() first")
    toks = _tex.tokens(tex)
    if "$" in toks:
        raise FormulaError("a bare '$' inside a formula (write \\$)")
    cmds = [t for t in toks if len(t) > 1 and t[0] == "\\" and t[1].isalpha()]
    if any(c in _fallback.TRIGGERS for c in cmds):
        return _render_fallback(tex, display=display)
    if any(c in _BIG_OPERATORS for c in cmds) and _fallback.knows(cmds):
        # mathtext draws a sum at text size in display and its limits above
        # and below even inline; ziamath follows TeX in both (a tall sum with
        # limits under it in display, limits at its side inline).
        return _render_fallback(tex, display=display)
    parts = [_tex.rewrite(part) for part in highlight]
    return _render_mathtext(_tex.rewrite(display_style(tex) if display else tex), parts)


#: Operators TeX draws larger in display style than in text.
_BIG_OPERATORS = frozenset(
    {
        "\\sum",
        "\\prod",
        "\\coprod",
        "\\int",
        "\\iint",
        "\\iiint",
        "\\oint",
        "\\bigcup",
        "\\bigcap",
        "\\bigoplus",
        "\\bigotimes",
        "\\bigvee",
        "\\bigwedge",
    }
)


def display_style(tex: str) -> str:
    """TeX's display style for mathtext: each outermost ``\\frac`` becomes ``\\dfrac``.

    In display style TeX sets a fraction's numerator and denominator at text
    size; mathtext's ``\\frac`` always shrinks them (text style). Fractions
    inside a fraction or a sub/superscript keep ``\\frac``, as TeX shrinks them
    there too; ``\\tfrac`` is left alone (it asks for text style).
    """
    out: list[str] = []
    outer = [True]  # per open group: is it at display level?
    args = [0]  # per open group: arguments still to come of a fraction in it
    previous = ""
    for tok in _tex.tokens(tex):
        if tok == "{":
            is_arg = args[-1] > 0
            args[-1] -= is_arg
            outer.append(outer[-1] and not is_arg and previous not in ("^", "_"))
            args.append(0)
        elif tok == "}":
            if len(outer) > 1:
                outer.pop()
                args.pop()
        elif tok in ("\\frac", "\\dfrac"):
            if tok == "\\frac" and outer[-1] and previous not in ("^", "_"):
                tok = "\\dfrac"
            args[-1] = 2
        elif not tok.isspace() and args[-1] > 0:
            args[-1] -= 1  # a one-token argument, as in \\frac12
        out.append(tok)
        if not tok.isspace():
            previous = tok
    return "".join(out)


def _render_mathtext(tex: str, highlight: Sequence[str] = ()) -> RenderedFormula:
    s = f"${tex}$"
    # A highlighted formula is parsed again by _highlight through matplotlib's
    # parser cache; a plain one once, with the fonts resolved once per process.
    parse = text_to_path.mathtext_parser.parse if highlight else mathtext_svg.parse
    try:
        width, height, depth, glyphs, rects = parse(s, dpi=72, prop=_PROP)
    except ValueError as exc:
        raise FormulaError(_mathtext_message(exc)) from None
    if width <= 0 or height <= 0:
        raise FormulaError("the formula draws nothing")
    # Units are points; the image is exactly the mathtext box, baseline at depth.
    marked = _highlight.marked_glyphs(tex, highlight, _PROP) if highlight else set()
    if marked:
        plain, coloured = _highlight.split_paths(s, _PROP, marked, depth)
        stroke = _highlight.BOLD_STROKE * 72 / 100
        layers = [mathtext_svg.Layer(coloured, _highlight.CLOZE_COLOUR, stroke)]
        layers.append(mathtext_svg.Layer(plain))
    else:
        layers = [mathtext_svg.Layer(mathtext_svg.outline(glyphs, rects, depth))]
    em = _SIZE / MATH_SCALE  # drawn points per em of the card's text
    return RenderedFormula(
        svg=mathtext_svg.svg_document(width, height, layers),
        width_em=float(width) / em,
        height_em=float(height) / em,
        depth_em=float(depth) / em,
        renderer="mathtext",
    )


_UNKNOWN_SYMBOL = re.compile(r"Unknown symbol: (\\?\S+?),? found")
_EXPECTED = re.compile(r"Expected (.+?), found '(.*?)'")


def _mathtext_message(exc: Exception) -> str:
    """Turn a mathtext ParseException into a short message naming the construct."""
    text = str(exc)
    m = _UNKNOWN_SYMBOL.search(text)
    if m:
        name = m.group(1)
        return f"unknown command {name}" if name.startswith("\\") else f"unknown symbol {name}"
    m = _EXPECTED.search(text)
    if m:
        return f"mathtext expected {m.group(1)} near {m.group(2)!r}"
    last = [line for line in text.splitlines() if line.strip()]
    detail = last[-1].split(":", 1)[-1].strip() if last else text
    detail = re.split(r",? found '", detail)[0].strip()
    return f"mathtext cannot draw this: {detail}"


_CASES = re.compile(r"\\begin\{cases\}.*?\\end\{cases\}", re.S)


def _render_fallback(tex: str, *, display: bool) -> RenderedFormula:
    toks = _tex.tokens(tex)
    envs: list[str] = []
    for i, t in enumerate(toks):
        if t == "\\begin":
            name, _ = _tex._group_arg(toks, i + 1)
            envs.append(name or "")
    # latex2mathml knows \le, \implies... natively; only drop the sizing switches
    tex = _tex.rewrite(tex, {})
    # ziamath sets the columns of cases almost touching ("1 x > 0"): add TeX's quad
    tex = _CASES.sub(lambda m: m.group(0).replace("&", "&\\quad "), tex)
    try:
        _fallback.check(_tex.commands(tex), envs)
        svg, width, height, depth = _fallback.render(tex, display=display, size=_SIZE)
    except _fallback.FallbackError as exc:
        raise FormulaError(str(exc)) from None
    scale = MATH_SCALE
    return RenderedFormula(svg, width * scale, height * scale, depth * scale, renderer="ziamath")
