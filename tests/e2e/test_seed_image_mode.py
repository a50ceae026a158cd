"""The seed deck in the default image mode: no raw TeX on any card, and a cached rebuild."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.anki_support import SeenCard, fresh_collection, import_deck, seen_cards
from tests.e2e.project import build_project, copy_seed_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_seed_project(tmp_path_factory.mktemp("seed-images"))


def build(project: Path) -> str:
    return build_project(project)


@pytest.fixture(scope="module")
def first_build(project: Path) -> str:
    return build(project)


@pytest.fixture(scope="module")
def cards(project: Path, first_build: str) -> list[SeenCard]:
    with fresh_collection() as collection:
        log = import_deck(collection, project / "build" / "distributed-training.apkg")
        assert log.duplicate == 0
        media = collection.media.check()
        assert media.missing == [] and media.unused == []
        return seen_cards(collection)


def visible_text(html: str) -> str:
    """Card HTML without tags and attributes: what a learner reads as text."""
    return re.sub(r"<[^>]+>", " ", html)


def test_no_raw_tex_on_any_card(cards: list[SeenCard]) -> None:
    for card in cards:
        for side in (card.front, card.back):
            text = visible_text(side)
            assert "$" not in text and "\\(" not in text and "\\frac" not in text, text


def test_formulas_are_images_on_the_baseline(cards: list[SeenCard]) -> None:
    inline = [m for c in cards for m in re.findall(r'<img class="ag-math"[^>]*>', c.back)]
    assert inline, "the seed has inline formulas"
    assert all("vertical-align:" in tag for tag in inline)


def test_cloze_in_math_front_hides_only_the_clozed_part(cards: list[SeenCard]) -> None:
    clozed = [c for c in cards if 'class="ag-mc"' in c.front]
    assert clozed, "the seed has clozes inside formulas"
    for card in clozed:
        hidden = re.findall(
            r'<span class="cloze" data-cloze="[^"]*" data-ordinal="\d+">'
            r"\[(<img[^>]*>)\]</span>",
            card.front,
        )
        assert len(hidden) == 1  # the active cloze shows its "hidden" variant as the hint
        shown_on_back = re.findall(
            r'<span class="cloze" data-ordinal="\d+">(<img[^>]*>)</span>', card.back
        )
        assert len(shown_on_back) == 1 and shown_on_back[0] != hidden[0]


def test_a_second_build_renders_nothing(project: Path, first_build: str) -> None:
    assert re.search(r"images: [1-9]\d* rendered, 0 from cache", first_build)
    again = build(project)
    assert re.search(r"images: 0 rendered, [1-9]\d* from cache", again)
