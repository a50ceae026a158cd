"""An operator name keeps its space after a symbol in an image (issue 24).

The seed's ``\\alpha \\log_2 k`` was once drawn with ``log`` touching the
``\\alpha``. TeX puts a thin space (1/6 em) between an ordinary symbol and an
operator such as ``\\log``; measured on the SVG MathJax draws, the distance
from the ``\\alpha`` to the ``l`` of ``log`` is the one of an explicit thin
space (``\\alpha\\,\\mathrm{log}``), one sixth of an em more than none, in the
seed's formula as the cards draw it: plain, and in the cloze's bold colour.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

from ankigen.render import render_formula

#: The seed's ring all-reduce cloze (content/distributed-training.md).
SEED_CLOZE = (
    r"T_{comm} \approx {{c1::\alpha \log_2 k}} + "
    r"{{c2::\frac{k - 1}{k} \cdot \frac{M}{\beta} }}"
)
#: MathJax's SVG units per em, and TeX's thin space in them.
EM = 1000
THIN_SPACE = EM / 6

_TRANSFORM = re.compile(r"(translate|scale)\(\s*([-0-9.]+)(?:[ ,]+([-0-9.]+))?")
_SVG = "{http://www.w3.org/2000/svg}"


def _placed(node: ET.Element, x: float = 0.0, scale: float = 1.0) -> Iterator[tuple[str, float]]:
    """Each path's ``d`` and the x of its origin, in the image's units."""
    for kind, first, _ in _TRANSFORM.findall(node.get("transform", "")):
        if kind == "translate":
            x += scale * float(first)
        else:
            scale *= abs(float(first))
    if node.tag == _SVG + "path":
        yield node.get("d", ""), x
    for child in node:
        yield from _placed(child, x, scale)


def _glyph(tex: str) -> str:
    """The path of the one glyph ``tex`` draws."""
    svg = ET.fromstring(render_formula(tex, display=False).svg)
    return next(d for d, _ in _placed(svg) if d)


def _alpha_to_log(tex: str, *, bold: bool = False, card: int = 0) -> float:
    """How far the ``l`` of ``log`` starts right of the ``\\alpha`` in ``tex``'s image."""
    wrap = (lambda t: rf"\boldsymbol{{{t}}}") if bold else (lambda t: t)
    alpha, ell = _glyph(wrap(r"\alpha")), _glyph(wrap(r"\mathrm{l}"))
    svg = ET.fromstring(render_formula(tex, display=False, card=card).svg)
    placed = list(_placed(svg))
    start = next(i for i, (d, _) in enumerate(placed) if d == alpha)
    end = next(i for i, (d, _) in enumerate(placed) if d == ell and i > start)
    return placed[end][1] - placed[start][1]


@pytest.mark.parametrize("tex", [r"\alpha\log_2 k", r"\alpha \log_2 k", r"x = \alpha\log k"])
def test_log_after_a_symbol_is_a_thin_space_away(tex: str) -> None:
    spaced = _alpha_to_log(r"\alpha\,\mathrm{log}_2 k")
    unspaced = _alpha_to_log(r"\alpha\mathrm{log}_2 k")
    assert spaced - unspaced == pytest.approx(THIN_SPACE, abs=1)
    assert _alpha_to_log(tex) == pytest.approx(spaced, abs=1)


def test_the_seed_cloze_keeps_the_space_plain_and_in_bold() -> None:
    plain = _alpha_to_log(SEED_CLOZE, card=2)  # the c2 card shows c1's text plain
    assert plain == pytest.approx(_alpha_to_log(r"\alpha\,\mathrm{log}_2 k"), abs=1)
    bold = _alpha_to_log(SEED_CLOZE, bold=True, card=1)  # the c1 card's back, in bold
    reference = _alpha_to_log(r"\boldsymbol{\alpha\,\mathrm{log}_2 k}", bold=True)
    assert bold == pytest.approx(reference, abs=1)
