"""Drawing a formula with matplotlib mathtext, and the way every formula image is drawn.

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

The engine is chosen (step 4) and the limits kept in ``_formula_drawing``;
ziamath is ``_fallback_drawing``; cloze colours are ``_mathtext_highlight``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path

from ankigen.render import _mathtext_highlight as _highlight
from ankigen.render import _mathtext_svg as mathtext_svg
from ankigen.render import _tex_syntax as _tex
from ankigen.render._formula_image import DRAW_SIZE as _SIZE
from ankigen.render._formula_image import FONTSET as _FONTSET
from ankigen.render._formula_image import MATH_SCALE, FormulaError, RenderedFormula
from ankigen.syntax.tex_macros import unknown_command

#: Drawn at TextToPath.FONT_SCALE (100), so the size parse below and the glyph
#: parse inside TextPath are the same call and the second is an lru_cache hit.
_PROP = FontProperties(size=_SIZE, math_fontfamily=_FONTSET)


# --- rendering --------------------------------------------------------------


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


def render_mathtext(tex: str, highlight: Sequence[str] = ()) -> RenderedFormula:
    """Draw TeX that mathtext knows (rewritten, in display style if wanted); raise FormulaError."""
    try:
        return _drawn(f"${tex}$", tex, highlight)
    finally:
        mathtext_svg.release_fonts(_PROP)


def _drawn(s: str, tex: str, highlight: Sequence[str]) -> RenderedFormula:
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
        return unknown_command(name) if name.startswith("\\") else f"unknown symbol {name}"
    m = _EXPECTED.search(text)
    if m:
        return f"mathtext expected {m.group(1)} near {m.group(2)!r}"
    last = [line for line in text.splitlines() if line.strip()]
    detail = last[-1].split(":", 1)[-1].strip() if last else text
    detail = re.split(r",? found '", detail)[0].strip()
    return f"mathtext cannot draw this: {detail}"
