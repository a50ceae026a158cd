"""Nested fractions in an image stay legible (issue 24).

An inline fraction's parts are set at script size and a fraction inside them
at script-script size: the seed's ``S = \\frac{T}{\\frac{T}{k} + T_{comm}}``
drew its inner numerator's ``T`` at half the formula's size, about 8 px tall
on a 20 px card. A fraction that holds a fraction is now drawn in display
style, so every level is one step larger. Measured on the SVG MathJax draws:
the scale each glyph is drawn at is the product of its groups' ``scale()``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from ankigen.render import render_formula
from ankigen.render._formula_image import MATH_SCALE
from ankigen.render._tex_syntax import nested_fractions_displayed

#: The seed's speedup formula as an inline cloze card shows it (content/, line 127).
SEED_INLINE = r"S = \frac{T_{compute} }{ \frac{T_{compute} }{k} + T_{comm} }"
#: The card's text size (card.css --ag-font-size), in px.
CARD_FONT_PX = 20
#: The height of MathJax's italic T, in em of its font.
T_HEIGHT_EM = 0.677

_SCALE = re.compile(r"scale\(\s*([-0-9.]+)")
_SVG = "{http://www.w3.org/2000/svg}"


def _glyph_scales(node: ET.Element, scale: float = 1.0) -> Iterator[tuple[str, float]]:
    """Each path's ``d`` and the scale it is drawn at (the x factor of every ``scale()``)."""
    for factor in _SCALE.findall(node.get("transform", "")):
        scale *= abs(float(factor))
    if node.tag == _SVG + "path":
        yield node.get("d", ""), scale
    for child in node:
        yield from _glyph_scales(child, scale)


def _scales_of(glyph: str, tex: str, *, display: bool) -> list[float]:
    """The scales at which ``glyph`` (one character drawn alone) appears in ``tex``'s image."""
    alone = [d for d, _ in _glyph_scales(ET.fromstring(render_formula(glyph, display=False).svg))]
    path = next(d for d in alone if d)
    drawn = ET.fromstring(render_formula(tex, display=display).svg)
    return [scale for d, scale in _glyph_scales(drawn) if d == path]


def test_the_seeds_inner_numerator_is_drawn_at_script_size_not_half() -> None:
    scales = _scales_of("T", SEED_INLINE, display=False)
    assert len(scales) == 3  # the outer numerator's, the inner numerator's and T_comm's T
    inner = min(scales)
    height_px = T_HEIGHT_EM * inner * MATH_SCALE * CARD_FONT_PX
    # before: 0.5 (script-script size), a T 8.1 px tall; now script size, 11.5 px
    assert inner >= 0.7, f"inner numerator drawn at {inner:.3f} ({height_px:.1f} px)"
    assert height_px >= 11


def test_digits_of_a_nested_fraction_are_no_smaller_than_script_size() -> None:
    for display in (False, True):
        for digit in "23":
            scales = _scales_of(digit, r"\frac{1}{\frac{2}{3} + 4}", display=display)
            assert scales and min(scales) >= 0.7, (digit, display, scales)


@pytest.mark.parametrize(
    ("tex", "expected"),
    [
        (r"\frac{a}{\frac{b}{c}}", r"\dfrac{a}{\frac{b}{c}}"),
        (r"\frac{\frac{a}{b}}{c} + \frac{d}{e}", r"\dfrac{\frac{a}{b}}{c} + \frac{d}{e}"),
        (r"\frac 1 {\frac{b}{c}}", r"\dfrac 1 {\frac{b}{c}}"),
        (r"\frac{a}{b}\frac{c}{d}", r"\frac{a}{b}\frac{c}{d}"),  # side by side: not nested
        (r"e^{\frac{1}{2}}", r"e^{\frac{1}{2}}"),  # under a script: left as written
        (r"\frac{a}{\tfrac{b}{c}}", r"\frac{a}{\tfrac{b}{c}}"),  # \tfrac says small on purpose
        (r"\frac{a}{", r"\frac{a}{"),  # unbalanced (refused earlier): no crash
    ],
)
def test_only_a_fraction_holding_a_fraction_is_displayed(tex: str, expected: str) -> None:
    assert nested_fractions_displayed(tex) == expected


def test_a_lone_inline_fraction_keeps_its_inline_size() -> None:
    plain = render_formula(r"\frac{a}{b}", display=False)
    displayed = render_formula(r"\dfrac{a}{b}", display=False)
    assert plain.height_em < displayed.height_em
