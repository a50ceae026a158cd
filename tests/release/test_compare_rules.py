"""Anki's re-import rules as ``ankigen.commands.diff.compare`` applies them, on
hand-made packages: one rule per test."""

from __future__ import annotations

from pathlib import Path

from ankigen.commands.diff import NOT_NEWER, SCHEMA_CHANGED, TYPE_CHANGED, DeckDiff, compare
from ankigen.importers.apkg import DeckFile, NoteTypeSchema, StoredNote

REVEAL = NoteTypeSchema(1, "ankigen Reveal", False, ("Question", "Answer", "Source"), ("Reveal",))
CLOZE = NoteTypeSchema(2, "ankigen Cloze", True, ("Text", "Extra", "Source"), ("Cloze",))
RELEASE_1 = "ankigen::cells::release-2025-01-01-000000"
RELEASE_2 = "ankigen::cells::release-2025-02-01-000000"


def note(
    guid: str,
    answer: str = "A",
    *,
    mtime: int = 100,
    tags: tuple[str, ...] = (RELEASE_1,),
    deck: str = "Cells",
    note_type: int = 1,
) -> StoredNote:
    return StoredNote(
        guid, note_type, ("<b>Q</b> &amp; more", answer, "cells.md:3"), tags, mtime, deck
    )


def package(*notes: StoredNote, types: tuple[NoteTypeSchema, ...] = (REVEAL, CLOZE)) -> DeckFile:
    return DeckFile(Path("x.apkg"), {t.id: t for t in types}, {n.guid: n for n in notes})


def outcome(diff: DeckDiff) -> dict[str, list[str]]:
    names = ("added", "updated", "unchanged", "removed", "not_applied", "moved")
    return {name: [c.guid for c in diff.outcome(name)] for name in names if diff.outcome(name)}


def test_new_and_missing_guids_are_added_and_removed() -> None:
    diff = compare(package(note("old")), package(note("new")))
    assert outcome(diff) == {"added": ["new"], "removed": ["old"]}
    assert diff.added[0].first_field == "Q & more"
    assert diff.added[0].source == "cells.md:3"


def test_a_newer_edit_is_updated_and_an_equal_time_one_is_not_applied() -> None:
    old = package(note("g", "A", mtime=100))
    assert outcome(compare(old, package(note("g", "B", mtime=101)))) == {"updated": ["g"]}
    stale = compare(old, package(note("g", "B", mtime=100)))
    assert outcome(stale) == {"not_applied": ["g"]}
    assert stale.not_applied[0].cause == NOT_NEWER


def test_only_the_release_tag_changing_is_unchanged() -> None:
    old = package(note("g", tags=("bio", RELEASE_1)))
    new = package(note("g", mtime=200, tags=("bio", RELEASE_2)))
    assert outcome(compare(old, new)) == {"unchanged": ["g"]}
    assert compare(old, new).release_tag == RELEASE_2
    retagged = package(note("g", mtime=200, tags=("cell", RELEASE_2)))
    assert outcome(compare(old, retagged)) == {"updated": ["g"]}


def test_another_note_type_is_not_applied_even_when_newer() -> None:
    diff = compare(package(note("g")), package(note("g", mtime=200, note_type=2)))
    assert outcome(diff) == {"not_applied": ["g"]}
    assert diff.not_applied[0].cause == TYPE_CHANGED
    assert "'ankigen Reveal' to 'ankigen Cloze'" in diff.not_applied[0].reason


def test_a_renamed_field_makes_every_note_of_the_type_not_applied() -> None:
    renamed = NoteTypeSchema(
        1, "ankigen Reveal", False, ("Prompt", "Answer", "Source"), ("Reveal",)
    )
    old = package(note("a"), note("b", "B"))
    new = package(note("a", mtime=200), note("b", "B", mtime=200), types=(renamed, CLOZE))
    diff = compare(old, new)
    assert outcome(diff) == {"not_applied": ["a", "b"]}
    assert {c.cause for c in diff.not_applied} == {SCHEMA_CHANGED}


def test_a_deck_move_is_listed_because_cards_stay_where_they_are() -> None:
    diff = compare(package(note("g")), package(note("g", "B", mtime=200, deck="Cells::Mitosis")))
    assert outcome(diff) == {"updated": ["g"], "moved": ["g"]}
    assert diff.moved[0].reason == "cards stay in 'Cells'"
