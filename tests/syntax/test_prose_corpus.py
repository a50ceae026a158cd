"""Ordinary prose never gets a near-miss warning (format section 13.1).

``fixtures/ordinary-prose.md`` is about a hundred lines of prose of every
kind an author writes: times, ratios, abbreviations with colons, URLs, code
named in prose, dialogue, labels without a card. The near-miss rules for
authors coming from other tools (``q?:: a``, ``Term::Definition``, ``Q:``
lines, a ``?`` line) must stay silent on all of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_text
from tests.parse.test_no_false_near_misses import NEAR_MISS_CODES

CORPUS = Path(__file__).parent / "fixtures" / "ordinary-prose.md"


def test_the_corpus_is_big_and_varied() -> None:
    lines = CORPUS.read_text("utf-8").splitlines()
    assert len(lines) >= 100
    for sample in ("10:30", "3:2", "e.g.:", "Note:", "http://", "std::vector", "C++::", "::"):
        assert sample in CORPUS.read_text("utf-8")


def test_the_corpus_as_a_file_is_silent(tmp_path: Path) -> None:
    result = parse_text(CORPUS.read_text("utf-8"), tmp_path / "prose.md", tmp_path, "prose.md")
    assert [d.format() for d in result.diagnostics if d.code in NEAR_MISS_CODES] == []


@pytest.mark.parametrize(
    "line",
    [line for line in CORPUS.read_text("utf-8").splitlines() if line.strip()],
)
def test_each_line_alone_is_silent(line: str, tmp_path: Path) -> None:
    """A line read as a file of its own (its neighbours cannot hide a finding)."""
    result = parse_text(line + "\n", tmp_path / "line.md", tmp_path, "line.md")
    assert [d.format() for d in result.diagnostics if d.code in NEAR_MISS_CODES] == []
