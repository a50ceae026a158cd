"""Import built decks into a throw-away collection with the real ``anki`` package."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from anki.collection import Collection, ImportAnkiPackageRequest
from anki.config import Config
from anki.notes import Note


@dataclass(frozen=True)
class ImportLog:
    """What Anki reported for one import."""

    new: int
    updated: int
    duplicate: int
    conflicting: int


@contextmanager
def fresh_collection() -> Iterator[Collection]:
    """A new empty collection, as a fresh Anki profile has: it NFC-normalises every
    field it imports (said here, not left to a default, since safety is judged after it)."""
    with tempfile.TemporaryDirectory(prefix="ankigen-test-") as folder:
        collection = Collection(os.path.join(folder, "collection.anki2"))
        collection.set_config_bool(Config.Bool.NORMALIZE_NOTE_TEXT, True)
        try:
            yield collection
        finally:
            collection.close()


def import_deck(collection: Collection, apkg: Path) -> ImportLog:
    """Import like the desktop app's import dialog does, with its default options."""
    options = collection._backend.get_import_anki_package_presets()
    response = collection.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(apkg.resolve()), options=options)
    )
    collection.models._clear_cache()
    log = response.log
    return ImportLog(len(log.new), len(log.updated), len(log.duplicate), len(log.conflicting))


@dataclass(frozen=True)
class SeenCard:
    """One card as a learner sees it: note type, deck, tags, rendered sides."""

    note_type: str
    deck: str
    tags: tuple[str, ...]
    front: str
    back: str
    guid: str


def seen_cards(collection: Collection) -> list[SeenCard]:
    """Every card, rendered by Anki itself, in the order learners meet new cards."""
    cards = []
    for card_id in collection.find_cards("", order="c.due, c.ord"):
        card = collection.get_card(card_id)
        note = card.note()
        cards.append(
            SeenCard(
                note_type=_note_type_name(note),
                deck=collection.decks.name(card.did),
                tags=tuple(note.tags),
                front=_without_style(card.question()),
                back=_without_style(card.answer()),
                guid=note.guid,
            )
        )
    return cards


def _note_type_name(note: Note) -> str:
    """The name of the note's type (every note of a collection has one)."""
    note_type = note.note_type()
    assert note_type is not None, f"note {note.id} has no note type"
    return str(note_type["name"])


def _without_style(html: str) -> str:
    """Drop the note type's <style> block that Anki puts before each side."""
    return re.sub(r"<style>.*?</style>", "", html, flags=re.DOTALL)
