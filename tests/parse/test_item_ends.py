"""Format §15, where an item ends: golden fixtures under ``item_ends/``.

Each ``item_ends/<name>.md`` is parsed; its items (as ``test_fixtures`` dumps
them), its prose blocks and its diagnostics are compared with
``item_ends/<name>.golden``. One fixture per rule: sub-headings kept in an
answer, the metadata comment ending its item, and each warning shape.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.diagnostics import Sink
from ankigen.parse import parse_file
from ankigen.parse.markdown import content_parser
from ankigen.parse.walker import Walker
from tests.conftest import compare_golden
from tests.parse.test_fixtures import dump_deck

FIXTURES = Path(__file__).parent / "item_ends"


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.md")), ids=lambda p: p.stem)
def test_item_ends(fixture: Path) -> None:
    result = parse_file(fixture, FIXTURES, fixture.name)
    lines = dump_deck(result.deck)
    lines.append("prose:")
    prose = result.deck.prose if result.deck is not None else ()
    lines += [f"  line {block.line}: {block.text!r}" for block in prose]
    lines.append("diagnostics:")
    lines += [f"  {d.format()}  [{d.code}]" for d in result.diagnostics]
    compare_golden("\n".join(lines) + "\n", fixture.with_suffix(".golden"))


def test_the_seed_decks_closing_prose_is_no_longer_on_a_card() -> None:
    seed = Path(__file__).parents[2] / "content" / "distributed-training.md"
    deck = parse_file(seed, seed.parent).deck
    assert deck is not None
    assert not any("read cleanly" in item.back.html for item in deck.items)
    assert any("read cleanly" in block.text for block in deck.prose)


def test_an_empty_answer_cut_by_a_heading_is_found_within_one_walk_too() -> None:
    # Parsed by sections, the file joins two sections' edges (parse.__init__);
    # walked whole, the walker sees the heading itself: the same warning.
    text = (FIXTURES / "warn-empty-answer-heading.md").read_text("utf-8")
    sink = Sink("f.md")
    Walker(text.splitlines(), sink).walk(content_parser().parse(text))
    assert [(d.line, d.code) for d in sink.diagnostics if d.code == "AG142"] == [(5, "AG142")]
