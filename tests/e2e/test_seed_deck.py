"""The seed deck (content/distributed-training.md) as a learner meets it in real Anki."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from ankigen.model import ItemKind
from ankigen.parse import parse_file
from tests.anki_support import SeenCard, fresh_collection, import_deck, seen_cards
from tests.conftest import ROOT
from tests.e2e.project import build_project, copy_seed_project

SEED = ROOT / "content" / "distributed-training.md"


def build(project: Path, *extra: str) -> Path:
    """Build the project's content in mathjax mode; return the deck path."""
    build_project(project, "--math", "mathjax", *extra)
    return project / "build" / "distributed-training.apkg"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_seed_project(tmp_path_factory.mktemp("seed"))


@pytest.fixture(scope="module")
def cards(project: Path) -> list[SeenCard]:
    apkg = build(project)
    with fresh_collection() as collection:
        log = import_deck(collection, apkg)
        assert log.duplicate == 0 and log.conflicting == 0
        check = collection.media.check()
        assert check.missing == [] and check.unused == []
        return seen_cards(collection)


def expected_counts() -> tuple[int, int]:
    """Notes and cards the format implies for the seed: one per reveal, one per cloze number."""
    deck = parse_file(SEED, SEED.parent).deck
    assert deck is not None
    cards = 0
    for item in deck.items:
        if item.kind is ItemKind.REVEAL:
            cards += 1
            continue
        text = item.front.html + "".join(m.tex for m in item.front.maths)
        cards += len(set(re.findall(r"\{\{c(\d+)::", text)))
    return len(deck.items), cards


def test_every_item_becomes_a_note_and_every_cloze_number_a_card(cards: list[SeenCard]) -> None:
    notes, expected_cards = expected_counts()
    assert len({c.guid for c in cards}) == notes
    assert len(cards) == expected_cards
    assert notes >= 40  # the whole seed, not a sample


def test_both_note_types_and_the_deck_name(cards: list[SeenCard]) -> None:
    assert {c.note_type for c in cards} == {"ankigen Reveal", "ankigen Cloze"}
    assert {c.deck for c in cards} == {"AI-ML deep dive::Distributed training"}


def test_no_card_side_is_empty_or_shows_its_answer_on_the_front(cards: list[SeenCard]) -> None:
    for card in cards:
        assert card.front.strip() and card.back.strip()
        assert card.front != card.back


def test_vocabulary_cloze_hides_and_reveals_the_word(cards: list[SeenCard]) -> None:
    cloze = next(
        c
        for c in cards
        if c.note_type == "ankigen Cloze" and 'data-cloze="All&#x2D;reduce"' in c.front
    )
    assert "[...]" in cloze.front
    assert ">All-reduce</span>" in cloze.back


def test_sections_and_callouts_become_tags(cards: list[SeenCard]) -> None:
    tags = {tag for card in cards for tag in card.tags}
    assert {
        "distributed-training",
        "recall",
        "true-or-false-justify",
        "spot-the-error",
        "why-questions",
        "edge-cases",
    } <= tags


def test_figures_are_shipped_and_referenced(cards: list[SeenCard]) -> None:
    backs = " ".join(c.back for c in cards)
    assert 'src="ag-fig-s01-' in backs and 'src="ag-fig-s02-' in backs


def test_edited_deck_updates_notes_in_place(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = tmp_path / "edited"
    shutil.copytree(project, edited)
    seed = edited / "content" / "distributed-training.md"
    text = seed.read_text("utf-8")
    assert "False. Every device holds a full copy" in text
    seed.write_text(
        text.replace(
            "False. Every device holds a full copy",
            "False (edited). Every device holds a full copy",
        ),
        "utf-8",
    )
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    first = build(project)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    second = build(edited)
    with fresh_collection() as collection:
        import_deck(collection, first)
        before = collection.note_count()
        log = import_deck(collection, second)
        assert log.new == 0 and log.conflicting == 0
        assert log.updated >= 1
        assert collection.note_count() == before
        assert len(collection.find_notes('"Answer:*False (edited)*"')) == 1
        ours = sorted(m["name"] for m in collection.models.all() if m["name"].startswith("ankigen"))
        assert ours == ["ankigen Cloze", "ankigen Reveal"]  # no note type copies
