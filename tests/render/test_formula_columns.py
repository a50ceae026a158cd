"""A formula's render problems say FILE:LINE:COL, the column of its opening ``$``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.model import MathMode
from tests.render.formula_support import formula_diagnostics


def _locations(tmp_path: Path, body: str, math: MathMode) -> list[tuple[str, str]]:
    return [(d.location, d.code) for d in formula_diagnostics(tmp_path, body, math)]


@pytest.mark.parametrize("math", [MathMode.IMAGE, MathMode.MATHJAX])
def test_a_refused_formula_after_a_good_one_is_placed_at_its_dollar(
    tmp_path: Path, math: MathMode
) -> None:
    body = r"Is $x$ ok? ::: No: $\frac{a}{b$ is not."
    assert _locations(tmp_path, body, math) == [("d.md:6:20", "AG302")]


def test_a_formula_that_cannot_be_drawn_is_placed_at_its_dollar(tmp_path: Path) -> None:
    body = r"What is foo? ::: It is $$x^2^3$$."
    assert _locations(tmp_path, body, MathMode.IMAGE) == [("d.md:6:24", "AG301")]
