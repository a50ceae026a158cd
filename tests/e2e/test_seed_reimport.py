"""The seed deck imported over the previous release updates a learner's collection in place.

``fixtures/previous-release/distributed-training.md`` is the seed as main
shipped it before issue 13's edits (commit a1200e8: 45 notes, 48 cards). It
is built at SOURCE_DATE_EPOCH=T1 and imported into a fresh collection with
the desktop import dialog's options; a few of its cards are reviewed. The
seed as it is now is built at T2 > T1 and imported over it. Real Anki must
update the 45 notes in place (same note and card ids, review history kept),
add the 9 new ones, duplicate and orphan nothing, and copy no note type.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from anki.collection import Collection

from tests.anki_support import fresh_collection, import_deck
from tests.e2e.project import REPO
from tests.reliability.release_support import (
    collection_notes,
    first_field_clashes,
    note_type_names,
    package_notes,
)
from tests.reliability.support import run_cli

PREVIOUS = Path(__file__).parent / "fixtures" / "previous-release" / "distributed-training.md"
T1 = 1_764_000_000
T2 = T1 + 86_400
REVIEWED = 5


def _build(root: Path, seed: Path, when: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Build ``seed`` with its figures at time ``when``; the deck's path.

    The previous release keeps the figure scripts it shipped with (they drew
    their numbers themselves; the seed's now read them from its formulas).
    """
    content = root / "content"
    shutil.rmtree(content, ignore_errors=True)
    content.mkdir(parents=True)
    shutil.copy(seed, content / "distributed-training.md")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(when))
    out = root / "build"  # one build folder for both: the second build reuses drawn formulas
    figures = seed.parent / "figures" if (seed.parent / "figures").is_dir() else REPO / "figures"
    result = run_cli(["build", str(content), "--figures", str(figures), "--out", str(out)])
    assert result.exit_code == 0, result.output
    deck = root / f"deck-{when}.apkg"
    shutil.move(out / "distributed-training.apkg", deck)
    return deck


def _history(collection: Collection) -> dict[int, tuple[int, int, int, int]]:
    """Card id -> (note id, reviews, interval, review log entries) of every card."""
    assert collection.db is not None
    rows = collection.db.all("select c.id, c.nid, c.reps, c.ivl from cards c")
    logs = {cid: n for cid, n in collection.db.all("select cid, count() from revlog group by cid")}
    return {cid: (nid, reps, ivl, logs.get(cid, 0)) for cid, nid, reps, ivl in rows}


def _note_ids(collection: Collection) -> dict[str, int]:
    """GUID -> note id of every note."""
    assert collection.db is not None
    return {guid: nid for nid, guid in collection.db.all("select id, guid from notes")}


def _review(collection: Collection, count: int) -> None:
    """Answer the first ``count`` cards the scheduler gives, as a learner would (Good)."""
    deck_id = collection.decks.id_for_name("AI-ML deep dive::Distributed training")
    assert deck_id is not None
    collection.decks.select(deck_id)
    for _ in range(count):
        card = collection.sched.getCard()
        assert card is not None
        collection.sched.answerCard(card, 3)


def test_new_seed_updates_the_previous_release_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    old = _build(tmp_path, PREVIOUS, T1, monkeypatch)
    new = _build(tmp_path, REPO / "content" / "distributed-training.md", T2, monkeypatch)
    old_notes, new_notes = package_notes(old), package_notes(new)
    assert (len(old_notes), len(new_notes)) == (45, 54)
    with fresh_collection() as collection:
        first = import_deck(collection, old)
        assert (first.new, first.duplicate) == (45, 0)
        _review(collection, REVIEWED)
        note_types = note_type_names(collection)
        ids_before = _note_ids(collection)
        history_before = _history(collection)
        reviewed = {cid for cid, (_, reps, _, logs) in history_before.items() if reps and logs}
        assert len(reviewed) == REVIEWED

        log = import_deck(collection, new)

        assert (log.new, log.updated, log.duplicate, log.conflicting) == (9, 45, 0, 0)
        ids_after = _note_ids(collection)
        assert {g: ids_after.get(g) for g in ids_before} == ids_before  # same note ids
        assert len(set(ids_after) - set(ids_before)) == 9
        assert set(ids_after) == set(new_notes)  # no note left over from the old release
        assert collection_notes(collection) == new_notes  # every edit applied
        history_after = _history(collection)
        assert {cid: history_after.get(cid) for cid in history_before} == history_before
        assert collection.card_count() == 58
        assert note_type_names(collection) == note_types  # no copy of a note type
        assert first_field_clashes(collection) == []
        assert list(collection.get_empty_cards().notes) == []  # no card left without its cloze
