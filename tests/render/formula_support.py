"""Render one deck's formulas alone and collect what they report (shared by render tests)."""

from __future__ import annotations

from pathlib import Path

from ankigen.diagnostics import Diagnostic, Sink
from ankigen.model import Deck, MathMode
from ankigen.parse import parse_text
from ankigen.render import MathRenderer, MediaCache


def formula_diagnostics(tmp_path: Path, body: str, math: MathMode) -> list[Diagnostic]:
    """The diagnostics of drawing ``body``'s formulas, ``body`` under a ``# D`` title in d.md."""
    source = f"---\nmath: {math.value}\n---\n# D\n\n{body}\n"
    deck = parse_text(source, tmp_path / "d.md", tmp_path, "d.md").deck
    assert isinstance(deck, Deck)
    sink = Sink("d.md")
    renderer = MathRenderer(MediaCache(tmp_path / "cache"))
    renderer.prepare(deck, sink)
    renderer.draw_pending()
    renderer.report_undrawn()
    return sink.diagnostics
