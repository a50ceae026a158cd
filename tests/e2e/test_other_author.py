"""A deck written to the format by someone else becomes exactly the cards it implies.

Built in mathjax mode and imported into a fresh collection with real Anki.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ankigen.package.release import is_release_tag
from tests.anki_support import SeenCard, fresh_collection, import_deck, seen_cards
from tests.e2e.project import build_project

FIXTURE = Path(__file__).parent / "fixtures" / "other-author"


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> list[SeenCard]:
    project = tmp_path_factory.mktemp("other-author")
    shutil.copytree(FIXTURE, project, dirs_exist_ok=True)
    out = project / "build"
    build_project(project, "--math", "mathjax")
    with fresh_collection() as collection:
        log = import_deck(collection, out / "cell-biology.apkg")
        assert (log.new, log.updated, log.duplicate) == (5, 0, 0)
        assert collection.media.check().missing == []
        return seen_cards(collection)


def test_notes_and_cards_in_file_order(cards: list[SeenCard]) -> None:
    kinds = [c.note_type for c in cards]
    assert kinds == [
        "ankigen Reveal",
        "ankigen Reveal",
        "ankigen Cloze",
        "ankigen Cloze",
        "ankigen Cloze",
        "ankigen Cloze",
    ]
    assert {c.deck for c in cards} == {"Biology::Cells"}


def test_reveal_item_with_id_and_tags(cards: list[SeenCard]) -> None:
    first = cards[0]
    assert "What is the powerhouse of the cell?" in first.front
    assert "The mitochondrion." not in first.front
    assert "The mitochondrion." in first.back
    assert set(_without_release(first.tags)) == {"bio", "organelles", "classic"}


def test_block_form_answer_runs_over_blocks_and_ships_the_image(cards: list[SeenCard]) -> None:
    block = cards[1]
    assert "Ribosomes are only found in the nucleus." in " ".join(block.front.split())
    assert "cytoplasm" in block.back
    assert "made in the nucleolus" in block.back
    assert '<img class="ag-image" src="ag-img-' in block.back


def test_mark_cloze_in_callout_is_tagged_recall(cards: list[SeenCard]) -> None:
    membrane = cards[2]
    assert "[...]" in membrane.front and "phospholipid bilayer</span>" not in membrane.front
    assert "phospholipid bilayer" in membrane.back
    assert set(_without_release(membrane.tags)) == {"bio", "organelles", "recall"}


def test_two_clozes_with_a_hint_make_two_cards(cards: list[SeenCard]) -> None:
    first, second = cards[3], cards[4]
    assert "[how many?]" in first.front and "330 billion" in first.front
    assert "37 trillion" in second.front and "[...]" in second.front
    assert "Sender &amp; Milo" in first.back  # the Extra field, on the back only
    assert "Sender" not in first.front


def test_cloze_inside_math_hides_only_the_clozed_part(cards: list[SeenCard]) -> None:
    doubling = cards[5]
    # in mathjax mode, ankigen's \class{cloze} marks the gap and the revealed part
    assert r"\(N(t) = N_0 \cdot \class{cloze}{[\ldots]}\)" in doubling.front
    assert r"\(N(t) = N_0 \cdot \class{cloze}{2^{t/T} }\)" in doubling.back


def _without_release(tags: tuple[str, ...]) -> list[str]:
    """The author's tags: every note also carries exactly one release tag."""
    assert sum(is_release_tag(t) for t in tags) == 1
    return [t for t in tags if not is_release_tag(t)]
