"""A formula's render problems say FILE:LINE:COL, the column of its opening ``$``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.diagnostics import Sink
from ankigen.model import Deck, MathMode
from ankigen.parse import parse_text
from ankigen.render import MathRenderer, MediaCache


def _locations(tmp_path: Path, body: str, math: MathMode) -> list[tuple[str, str]]:
    source = f"---\nmath: {math.value}\n---\n# D\n\n{body}\n"
    deck = parse_text(source, tmp_path / "d.md", tmp_path, "d.md").deck
    assert isinstance(deck, Deck)
    sink = Sink("d.md")
    renderer = MathRenderer(MediaCache(tmp_path / "cache"))
    renderer.prepare(deck, sink)
    renderer.draw_pending()
    renderer.report_undrawn()
    return [(d.location, d.code) for d in sink.diagnostics]


@pytest.mark.parametrize("math", [MathMode.IMAGE, MathMode.MATHJAX])
def test_a_refused_formula_after_a_good_one_is_placed_at_its_dollar(
    tmp_path: Path, math: MathMode
) -> None:
    body = r"Is $x$ ok? ::: No: $\frac{a}{b$ is not."
    assert _locations(tmp_path, body, math) == [("d.md:6:20", "AG302")]


def test_a_formula_that_cannot_be_drawn_is_placed_at_its_dollar(tmp_path: Path) -> None:
    body = r"What is foo? ::: It is $$\notacommand x$$."
    assert _locations(tmp_path, body, MathMode.IMAGE) == [("d.md:6:24", "AG301")]
