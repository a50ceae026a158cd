"""The drawing limits of image mode: a nesting-depth guard before any layout engine
runs, a time limit, and a stack overflow turned into the same kind of error."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import ankigen.render._formula_drawing
from ankigen.render import (
    MAX_DRAW_DEPTH,
    MAX_FALLBACK_DEPTH,
    DrawingLimitError,
    draw_within_limits,
)


def _nested(command: str, depth: int) -> str:
    return f"{command}{{" * depth + "x" + "}" * depth


def test_mathtext_draws_up_to_its_depth_limit() -> None:
    drawn = draw_within_limits(_nested("\\sqrt", MAX_DRAW_DEPTH), display=False, time_limit=30)
    assert drawn.renderer == "mathtext"


def test_one_level_deeper_is_refused_before_drawing() -> None:
    with pytest.raises(DrawingLimitError) as refused:
        draw_within_limits(_nested("\\sqrt", MAX_DRAW_DEPTH + 1), display=False, time_limit=30)
    assert refused.value.code == "AG663"
    assert str(refused.value).startswith(f"it nests braces {MAX_DRAW_DEPTH + 1} deep")


def test_the_slow_engine_has_a_lower_depth_limit() -> None:
    with pytest.raises(DrawingLimitError) as refused:
        draw_within_limits(_nested("\\boxed", MAX_FALLBACK_DEPTH + 1), display=True, time_limit=30)
    assert refused.value.code == "AG663"
    assert f"with \\boxed, \\underbrace or a matrix can nest at most {MAX_FALLBACK_DEPTH}" in (
        str(refused.value)
    )


def test_a_stack_overflow_is_a_depth_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def overflow(tex: str, *, display: bool, highlight: Sequence[str] = ()) -> None:
        raise RecursionError

    monkeypatch.setattr(ankigen.render._formula_drawing, "render_formula", overflow)
    with pytest.raises(DrawingLimitError) as refused:
        draw_within_limits("x", display=False, time_limit=30)
    assert refused.value.code == "AG663"
    assert str(refused.value).startswith("it is too deeply nested to draw as an image")


def test_slow_drawing_is_stopped_at_the_time_limit() -> None:
    """Seven nested underbraces take ziamath over a second; the limit is 10 ms."""
    with pytest.raises(DrawingLimitError) as stopped:
        draw_within_limits(_nested("\\underbrace", 7), display=False, time_limit=0.01)
    assert stopped.value.code == "AG662"
    assert "formula time limit of 0.01 s" in str(stopped.value)
