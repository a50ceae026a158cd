"""The preview's card rendering agrees with the real ``anki`` package, card for card."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ankigen.cli.options import resolve
from ankigen.commands.build import run
from ankigen.package.anki_cards import cloze_ordinals, reveal_clozes
from ankigen.preview.deck import PreviewCard, deck_cards
from tests.anki_support import fresh_collection, import_deck
from tests.e2e.project import copy_seed_project

FIXTURES = Path(__file__).parent / "fixtures"


def built_cards(content: Path, out: Path, math: str | None) -> tuple[Path, list[PreviewCard]]:
    """Build the content; return the deck file and the preview's cards of it."""
    result = run(resolve((content,), out_dir=out, math=math, strict=False))
    assert not result.failed, [d.format() for d in result.diagnostics]
    (deck,) = result.written
    return deck.path, [card for r in result.rendered for card in deck_cards(r)]


def anki_sides(apkg: Path) -> dict[tuple[str, int], tuple[str, str]]:
    """(guid, ordinal) -> (front, back) as Anki renders them, without the <style> block."""
    sides = {}
    with fresh_collection() as collection:
        import_deck(collection, apkg)
        for card_id in collection.find_cards(""):
            card = collection.get_card(card_id)
            front, back = (
                re.sub(r"<style>.*?</style>", "", side, flags=re.DOTALL)
                for side in (card.question(), card.answer())
            )
            sides[(card.note().guid, card.ord)] = (front, back)
    return sides


@pytest.mark.parametrize("math", ["mathjax", "image"])
def test_every_seed_card_renders_as_in_anki(tmp_path: Path, math: str) -> None:
    project = copy_seed_project(tmp_path)
    apkg, cards = built_cards(project / "content", project / "build", math)
    expected = anki_sides(apkg)
    assert len(cards) == len(expected) == 58
    for card in cards:
        assert (card.front, card.back) == expected[(card.guid, card.ordinal)], card.source


def test_nested_hinted_gapped_and_math_clozes_render_as_in_anki(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "clozes.md", tmp_path / "clozes.md")
    apkg, cards = built_cards(tmp_path / "clozes.md", tmp_path / "build", None)
    expected = anki_sides(apkg)
    assert sorted((c.guid, c.ordinal) for c in cards) == sorted(expected)
    # c2 nested in c1 has its card too (genanki alone would write none for it).
    assert len(cards) == 3 + 2 + 1 + 2 + 1
    nested = [c for c in cards if '<span class="cloze" data-ordinal="2">inner</span>' in c.back]
    assert len(nested) == 1 and nested[0].ordinal == 1
    for card in cards:
        assert (card.front, card.back) == expected[(card.guid, card.ordinal)], card.source


@pytest.mark.parametrize(
    ("text", "ordinal", "question", "shown"),
    [
        ("a }} b", 0, True, ""),  # no cloze: no card
        ("{{c1::x}} }}", 0, False, '<span class="cloze" data-ordinal="1">x</span> }}'),
        ("{{c1::never closed", 0, True, ""),
        ("{{c1::x::h}}", 0, True, '<span class="cloze" data-cloze="x" data-ordinal="1">[h]</span>'),
        ("\\({{c1::x}}\\)", 0, True, "\\([...]\\)"),
    ],
)
def test_anki_cloze_rules(text: str, ordinal: int, question: bool, shown: str) -> None:
    assert reveal_clozes(text, ordinal, question) == shown


def test_cloze_ordinals_follow_the_numbers_written_nested_too() -> None:
    assert cloze_ordinals("{{c3::a}} {{c1::b {{c2::c}}}} {{c0::d}}") == (0, 1, 2)
