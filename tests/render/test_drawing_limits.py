"""The drawing limits: time (V8 stops the formula), nesting, and size (input and image)."""

from __future__ import annotations

import pytest

from ankigen.render import DrawingLimitError, FormulaError, draw_within_limits, tex_problem
from ankigen.render import _mathjax_engine as mathjax_engine
from ankigen.render._tex_policy import MAX_BRACE_DEPTH, MAX_FORMULA_CHARS


def _nested(command: str, depth: int) -> str:
    return f"{command}{{" * depth + "x" + "}" * depth


def test_the_deepest_allowed_nesting_draws() -> None:
    drawn = draw_within_limits(_nested("\\sqrt", MAX_BRACE_DEPTH), display=False, time_limit=30)
    assert drawn.renderer == "mathjax"


def test_one_level_deeper_is_refused_before_drawing() -> None:
    with pytest.raises(FormulaError, match=f"nests braces {MAX_BRACE_DEPTH + 1} deep"):
        draw_within_limits(_nested("\\sqrt", MAX_BRACE_DEPTH + 1), display=False, time_limit=30)


def test_slow_drawing_is_stopped_at_the_time_limit() -> None:
    """Three hundred fractions take MathJax far over a millisecond."""
    with pytest.raises(DrawingLimitError) as stopped:
        draw_within_limits(r"\frac{a}{b}+" * 300 + "x", display=False, time_limit=0.001)
    assert stopped.value.code == "AG662"
    assert "formula time limit of 0.001 s" in str(stopped.value)
    # V8 stopped the script, not the engine: the next formula draws
    assert draw_within_limits("x", display=False, time_limit=30).svg


def test_a_formula_over_the_size_limit_is_refused_before_drawing() -> None:
    huge = "x+" * 25_000 + "x"  # 50 KB
    assert "formula is too long" in (tex_problem(huge) or "")
    with pytest.raises(FormulaError, match="formula is too long"):
        draw_within_limits(huge, display=False, time_limit=30)


def test_an_image_over_the_size_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mathjax_engine, "MAX_SVG_BYTES", 2_000)
    with pytest.raises(FormulaError, match="its image would be"):
        draw_within_limits(r"\sum_{i=1}^{n} x_i^2", display=True, time_limit=30)


def test_size_limits_leave_room_for_real_formulas() -> None:
    assert MAX_FORMULA_CHARS >= 2000
    long_but_fine = " + ".join(f"x_{{{i}}}" for i in range(300))
    assert draw_within_limits(long_but_fine, display=False, time_limit=30).svg
