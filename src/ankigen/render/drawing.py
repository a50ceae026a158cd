"""Limits on drawing one formula as an image: a nesting-depth guard and a time limit.

Both layout engines are recursive and can be slow on nested input: mathtext
(pyparsing) overflows Python's stack at about 25 nested groups (``\\sqrt{\\sqrt{…}}``),
and ziamath's layout time grows about twice per level (``\\boxed{`` nested 12 deep
takes seconds, 20 deep minutes). Formulas past the depth guard are refused
before either engine sees them; the time limit stops whatever else is slow.
"""

from __future__ import annotations

from collections.abc import Sequence

from ankigen.render import _fallback, _tex
from ankigen.render.tex import FormulaError, RenderedFormula
from ankigen.timelimit import TimeLimitExceeded, TimeLimits, call_with_time_limit

#: Deepest ``{`` nesting drawn by mathtext (it overflows its stack past ~24).
MAX_DRAW_DEPTH = 20
#: Deepest ``{`` nesting drawn by ziamath (``\boxed``, ``\underbrace``, matrices...).
MAX_FALLBACK_DEPTH = 8
#: Seconds one formula may take to draw (the default of ``formula-time-limit``).
FORMULA_TIME_LIMIT = TimeLimits.formula


class DrawingLimitError(FormulaError):
    """A formula over a drawing limit; ``code`` is its diagnostic code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def draw_within_limits(
    tex: str, *, display: bool, time_limit: float, highlight: Sequence[str] = ()
) -> RenderedFormula:
    """``render_formula`` under the depth guard and ``time_limit`` seconds."""
    from ankigen.render.formula import render_formula  # loads matplotlib

    depth_problem = _depth_problem(tex)
    if depth_problem is not None:
        raise DrawingLimitError(depth_problem, "AG663")
    try:
        return call_with_time_limit(
            lambda: render_formula(tex, display=display, highlight=highlight), time_limit
        )
    except TimeLimitExceeded:
        raise DrawingLimitError(
            f"drawing it took longer than the formula time limit of {time_limit:g} s; "
            "simplify it, or raise formula-time-limit in [tool.ankigen]",
            "AG662",
        ) from None
    except RecursionError:
        raise DrawingLimitError(
            "it is too deeply nested to draw as an image: flatten it, or use math: mathjax "
            "(this limit cannot be raised)",
            "AG663",
        ) from None


def _depth_problem(tex: str) -> str | None:
    """A message when the formula nests braces deeper than its layout engine can draw."""
    depth = deepest = 0
    for char in tex:
        depth += char == "{"
        depth -= char == "}"
        deepest = max(deepest, depth)
    commands = {t for t in _tex.tokens(tex) if len(t) > 1 and t[0] == "\\"}
    limit = MAX_FALLBACK_DEPTH if commands & set(_fallback.TRIGGERS) else MAX_DRAW_DEPTH
    if deepest <= limit:
        return None
    where = " with \\boxed, \\underbrace or a matrix" if limit == MAX_FALLBACK_DEPTH else ""
    return (
        f"it nests braces {deepest} deep, and an image of a formula{where} can nest at most "
        f"{limit}: flatten it, or use math: mathjax (this limit cannot be raised)"
    )
