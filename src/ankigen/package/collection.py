"""The notes and cards of a deck's collection, written as genanki writes them, without its objects.

genanki makes a ``Note`` (tag list, card list, property lookups) per note and
writes its rows one method call at a time; at 10,000 notes that costs more
than the inserts themselves. A ``RowDeck`` is a genanki deck that writes the
same rows, in the same order, with the same ids (one id counter: a note, then
its cards), from plain tuples: the deck and note-type JSON is still genanki's
own, and so the database bytes are the same (``tests/perf/test_collection_rows.py``
compares them with genanki's). genanki's checks of a note's shape stay: a tag
with a space is refused, so is a field count other than the note type's.
genanki's warning about broken HTML tags does not run: every field is HTML that
ankigen wrote itself (and judged as Anki stores it, ``anki_markup``), and
genanki's pattern for it is quadratic in a line's length (one answer line of
200,000 links took three minutes).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import genanki

__all__ = ["NoteRow", "RowDeck"]

_NOTE = "INSERT INTO notes VALUES(?,?,?,?,?,?,?,?,?,?,?);"
_CARD = "INSERT INTO cards VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?);"


class NoteRow(NamedTuple):
    """One note as the database holds it, and its cards' ordinals.

    A named tuple: as immutable as a frozen dataclass, and made several times faster
    (one per note of every build).
    """

    model: genanki.Model
    fields: tuple[str, ...]
    guid: str
    tags: tuple[str, ...]
    due: int
    mtime: float
    ordinals: tuple[int, ...]


class RowDeck(genanki.Deck):  # type: ignore[misc]
    """A genanki deck whose notes are ``NoteRow`` values, written straight to the database."""

    def __init__(self, deck_id: int, name: str) -> None:
        super().__init__(deck_id, name)
        self.rows: list[NoteRow] = []

    def add_row(self, row: NoteRow) -> None:
        """Add a note (its model joins the deck's note types, as ``add_note`` would)."""
        _check(row)
        self.add_model(row.model)
        self.rows.append(row)

    def write_to_db(self, cursor: Any, timestamp: float, id_gen: Iterator[int]) -> None:
        """genanki's deck and note-type JSON, then each note and its cards."""
        super().write_to_db(cursor, timestamp, id_gen)  # no genanki notes: only the JSON
        execute = cursor.execute
        deck_id = self.deck_id
        for row in self.rows:
            mtime = int(row.mtime)
            tags = " " + " ".join(row.tags) + " "
            fields = "\x1f".join(row.fields)
            note = (next(id_gen), row.guid, row.model.model_id, mtime, -1, tags, fields)
            execute(_NOTE, (*note, row.fields[0], 0, 0, ""))
            note_id = cursor.lastrowid
            for ordinal in row.ordinals:
                card = (next(id_gen), note_id, deck_id, ordinal, mtime, -1, 0, 0, row.due)
                execute(_CARD, (*card, 0, 0, 0, 0, 0, 0, 0, 0, ""))


def _check(row: NoteRow) -> None:
    """genanki's own checks of a note's shape: its field count and its tags."""
    if len(row.model.fields) != len(row.fields):
        raise ValueError(
            f"{len(row.model.fields)} fields in note type {row.model.name!r}, "
            f"{len(row.fields)} in the note"
        )
    for tag in row.tags:
        if " " in tag:
            raise ValueError(f'Tag "{tag}" contains a space; this is not allowed!')
