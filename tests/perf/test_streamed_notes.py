"""Notes made one at a time while the collection is written give genanki's own rows.

``write_deck`` no longer holds a genanki note for every note of the deck: each
is made just before it is written. The collection must be the one genanki
writes from a deck holding all its notes at once: the same rows, ids and
order, with subdecks and both note types interleaved.
"""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import genanki

from ankigen import package
from ankigen.model import Deck, ItemKind, MathMode
from ankigen.package.release import release_tag
from ankigen.render import Note, RenderedDeck

TIMESTAMP = 1_700_000_000.0

# Subdecks interleaved, a subdeck whose first note is a cloze, a note with its own time.
NOTES = [
    ("Main", ItemKind.REVEAL, "What is a gradient? ::"),
    ("Main::Optimisers", ItemKind.CLOZE, "{{c1::Adam}} keeps {{c2::two}} moments"),
    ("Main", ItemKind.CLOZE, "{{c1::SGD}} has {{c1::no}} moments"),
    ("Main::Optimisers", ItemKind.REVEAL, "What does momentum keep?"),
    ("Main::Schedules", ItemKind.REVEAL, "What is warm-up?"),
    ("Main", ItemKind.REVEAL, "What is a learning rate?"),
]


def _rendered(tmp_path: Path) -> RenderedDeck:
    deck = Deck(
        path=tmp_path / "bank.md",
        display_path="bank.md",
        root=tmp_path,
        name="Main",
        key="bank",
        math=MathMode.MATHJAX,
        items=(),
    )
    notes = tuple(
        Note(kind, (front, f"answer {i}", f"bank.md:{i}"), f"guid{i}", ("t",), name, i)
        for i, (name, kind, front) in enumerate(NOTES)
    )
    return RenderedDeck(deck, notes, ())


def _all_at_once(rendered: RenderedDeck, times: dict[str, float], path: Path) -> None:
    """The collection as genanki writes it from decks holding every note (the old way)."""
    deck = rendered.deck
    release = release_tag(deck.key, TIMESTAMP)
    decks: dict[str, genanki.Deck] = {}
    for position, note in enumerate(rendered.notes):
        subdeck = "" if note.deck_name == deck.name else note.deck_name
        target = decks.setdefault(
            note.deck_name, genanki.Deck(package.deck_id(deck.key, subdeck), note.deck_name)
        )
        target.add_note(
            package._Note(
                package.card_ordinals(note.kind, note.fields),
                times.get(note.guid, TIMESTAMP),
                model=package._model(note.kind),
                fields=list(note.fields),
                guid=note.guid,
                tags=[*note.tags, release],
                due=position,
                sort_field=note.fields[0],
            )
        )
    package._write_collection(genanki.Package(list(decks.values())), path, TIMESTAMP)


def _rows(database: Path) -> list[str]:
    connection = sqlite3.connect(database)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def test_streamed_notes_write_the_rows_genanki_writes_from_all_notes(tmp_path: Path) -> None:
    rendered = _rendered(tmp_path)
    times = {"guid3": TIMESTAMP - 3600.0}
    written = package.write_deck(rendered, tmp_path / "out", TIMESTAMP, times)
    with zipfile.ZipFile(written.path) as archive:
        (tmp_path / "streamed.anki2").write_bytes(archive.read("collection.anki2"))
    _all_at_once(rendered, times, tmp_path / "reference.anki2")

    streamed = _rows(tmp_path / "streamed.anki2")
    assert streamed == _rows(tmp_path / "reference.anki2")
    assert sum(row.startswith('INSERT INTO "notes"') for row in streamed) == len(NOTES)
    # Two cards for the Adam cloze, one for every other note.
    assert (written.notes, written.cards) == (len(NOTES), len(NOTES) + 1)
