"""A drawn formula's mathtext font set is let go of, and letting go changes no image.

matplotlib caches ``StixFonts.get_sized_alternatives_for_symbol`` on the class,
keyed by the font set, so each formula's font set (with its glyph metrics)
stayed alive for good once it drew a sized delimiter or a root: a worker
drawing thousands of formulas only grew. ``_mathtext_svg.release_fonts``
empties that cache after each formula.
"""

from __future__ import annotations

import gc

import pytest
from matplotlib import _mathtext

from ankigen.render import _mathtext_svg
from ankigen.render._formula_drawing import render_formula

#: Sized delimiters and roots: the symbols whose sized variants the cache keeps.
_FORMULAS = [
    *(rf"\left( \frac{{{n}}}{{x_{n}}} \right)" for n in range(12)),
    *(rf"\sqrt{{{n} + y}} = \left[ z_{n} \right]" for n in range(12)),
    *(rf"\left\{{ a^{n}, b \right\}} \cdot \sqrt{{\sqrt{{{n}}}}}" for n in range(6)),
]


def _font_sets_alive() -> int:
    gc.collect()
    return sum(isinstance(o, _mathtext.TruetypeFonts) for o in gc.get_objects())


def _drawn() -> list[bytes]:
    return [render_formula(tex, display=n % 2 == 0).svg for n, tex in enumerate(_FORMULAS)]


def test_the_font_sets_of_drawn_formulas_are_not_kept() -> None:
    render_formula(r"\left( x \right)", display=False)  # the process's own font set
    before = _font_sets_alive()
    _drawn()
    assert _font_sets_alive() <= before


def test_letting_the_font_sets_go_draws_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    released = _drawn()
    monkeypatch.setattr(_mathtext_svg, "release_fonts", lambda prop: None)
    kept = _drawn()
    assert kept == released
    assert _font_sets_alive() > len(_FORMULAS) // 2  # kept, as matplotlib alone would
