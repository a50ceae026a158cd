"""From checked TeX to a formula image, the whole way (image mode).

1. ``formula_problem`` checks the TeX exactly as mathjax mode does: the size
   limits, braces and environments, cloze syntax, and the allow-list
   (``ankigen.syntax.tex``; nothing that links, styles, loads or defines).
2. A clozed formula's card gets its cloze drawn in the cloze colour, in bold:
   its gap on the front, its text on the back (``_tex_syntax.mathjax_marked``,
   the marking mathjax mode writes for Anki, with a colour instead of a class).
3. A fraction holding a fraction is set in display style (``\\dfrac``), so
   the inner one is drawn at script size, not script-script (about 6 px).
   In a display formula, ``\\tag{x}`` becomes ``\\qquad\\text{(x)}``: MathJax sets
   a tag at the right edge of a page-wide box, which an image has not.
4. MathJax draws it (``_mathjax_engine``: one V8 context per process).
5. The SVG goes through the SVG allow-list (``_svg_safety``) like every image.

Sizes: MathJax gives them in ex of its TeX font (x-height 0.442 em), and the
formula's em is ``MATH_SCALE`` times the card's text em, as in MathJax's own
match of the surrounding font's x-height. An ``<img>`` given ``width: Wem``
and ``vertical-align: -Dem`` sits on the text's baseline at the text's size.
"""

from __future__ import annotations

from ankigen.render import _tex_syntax
from ankigen.render._formula_image import MATH_SCALE, FormulaError, RenderedFormula
from ankigen.render._mathjax_engine import (
    MathJaxError,
    MathJaxOutOfHeap,
    MathJaxSvg,
    MathJaxTimeout,
    MathJaxTooDeep,
    engine,
)
from ankigen.render._svg_safety import CleanSvg, sanitise_svg
from ankigen.render._tex_policy import formula_problem

#: The x-height of MathJax's TeX font, in its em.
X_HEIGHT = 0.442
#: One MathJax ex in em of the card's text.
EX_IN_EM = X_HEIGHT * MATH_SCALE

#: The card's cloze colour (card.css ``--ag-accent``, #1f5fbf) as MathJax's
#: color package spells it; night mode inverts the image and rotates its hue
#: back, which turns it into a light blue.
_CLOZE_MARK = r"{\color[RGB]{31,95,191}\boldsymbol{%s}}"


class DrawTimeout(Exception):
    """Drawing took longer than its time limit."""


class DrawTooDeep(Exception):
    """The formula nests deeper than the engine can follow."""


def _drawn(source: str, display: bool, time_limit: float) -> MathJaxSvg:
    """The engine's drawing; a formula that ran out of heap on an engine that had drawn
    others is drawn again on a fresh one, so whether it fits never depends on what the
    same process drew before (the order, ``-j``): only a fresh engine's failure counts."""
    try:
        return engine().draw(source, display=display, time_limit=time_limit)
    except MathJaxOutOfHeap as exc:
        if exc.fresh:
            raise
    return engine().draw(source, display=display, time_limit=time_limit)  # a new engine


def draw(
    tex: str, *, display: bool, time_limit: float, card: int = 0, hide: bool = False
) -> RenderedFormula:
    """Draw checked TeX as an SVG image (see the module's steps); raise FormulaError."""
    problem = formula_problem(tex)
    if problem is not None:
        raise FormulaError(problem.message)
    source = _tex_syntax.nested_fractions_displayed(engine_tex(tex, card=card, hide=hide))
    if display:
        source = _tex_syntax.tags_as_text(source)
    try:
        drawn = _drawn(source, display, time_limit)
    except MathJaxTimeout:
        raise DrawTimeout from None
    except MathJaxTooDeep:
        raise DrawTooDeep from None
    except MathJaxError as exc:
        raise FormulaError(with_fix(str(exc))) from None
    clean = sanitise_svg(drawn.svg.encode())
    if not isinstance(clean, CleanSvg):  # the engine writes only allowed names: a bug
        raise FormulaError(f"its image was refused by the SVG allow-list: {clean.reason}")
    return RenderedFormula(
        svg=clean.data,
        width_em=round(drawn.width_ex * EX_IN_EM, 4),
        height_em=round(drawn.height_ex * EX_IN_EM, 4),
        depth_em=round(drawn.depth_ex * EX_IN_EM, 4),
        renderer="mathjax",
    )


#: MathJax's messages that name the problem but not the fix, and the fix.
_FIXES = {
    "Misplaced &": "write & only inside an environment such as aligned, cases or a matrix",
    "Missing argument for": "give it its argument in braces",
    "Missing superscript or subscript argument": "write what goes after the ^ or _",
}


def with_fix(message: str) -> str:
    """MathJax's message, with the fix when MathJax's own words do not say it."""
    for start, fix in _FIXES.items():
        if message.startswith(start):
            return f"{message}: {fix}"
    return message


def engine_tex(tex: str, *, card: int, hide: bool) -> str:
    """The TeX MathJax draws: cloze ``card`` marked in the cloze colour (0: no clozes)."""
    clozes = _tex_syntax.find_clozes(tex)
    if not card:
        if clozes:
            raise FormulaError("cloze markers must be split off with cloze_variants() first")
        return tex
    if card not in {c.number for c in clozes}:
        raise FormulaError(f"the formula has no cloze c{card}")
    return _tex_syntax.mathjax_marked(tex, clozes, card, hide=hide, mark=_CLOZE_MARK)
