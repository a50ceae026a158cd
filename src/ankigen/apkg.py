"""Read an ``.apkg`` with the standard library: its note types and notes, as Anki sees them.

Only what deciding a re-import needs: each note type's id, kind, field and
template names (its schema), and each note's GUID, note type, fields, tags,
modification time and deck. Reads the legacy collection (``collection.anki21``
or ``collection.anki2``), which genanki and Anki's "support older versions"
export write.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ankigen.errors import AnkigenError

_COLLECTIONS = ("collection.anki21", "collection.anki2")
_NEWER = "collection.anki21b"  # zstd-compressed: not readable with the standard library


class UnreadableDeck(AnkigenError):
    """The file is not an ``.apkg`` this reader understands."""


@dataclass(frozen=True)
class NoteTypeSchema:
    """What a learner's collection keys a note type on: id, kind, field and template names."""

    id: int
    name: str
    is_cloze: bool
    fields: tuple[str, ...]
    templates: tuple[str, ...]

    def same_schema(self, other: NoteTypeSchema) -> bool:
        """True when Anki would take ``other`` as this very note type (no copy, no conflict)."""
        return (self.id, self.is_cloze, self.fields, self.templates) == (
            other.id,
            other.is_cloze,
            other.fields,
            other.templates,
        )


@dataclass(frozen=True)
class StoredNote:
    """One note in a package."""

    guid: str
    note_type: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    mtime: int
    deck: str


@dataclass(frozen=True)
class DeckFile:
    """A package's note types (by id) and notes (by GUID)."""

    path: Path
    note_types: dict[int, NoteTypeSchema]
    notes: dict[str, StoredNote]


def read_deck_file(path: Path) -> DeckFile:
    """Read ``path``; raise :class:`UnreadableDeck` when it is not a readable package."""
    try:
        with zipfile.ZipFile(path) as archive, tempfile.TemporaryDirectory() as tmp:
            names = set(archive.namelist())
            member = next((n for n in _COLLECTIONS if n in names), None)
            # A newer export's collection.anki2 is a stub that says "update Anki".
            if member is None or (member == "collection.anki2" and _NEWER in names):
                raise UnreadableDeck(_no_collection(path, names))
            archive.extract(member, tmp)
            return _read_collection(path, Path(tmp) / member)
    except (OSError, zipfile.BadZipFile) as exc:
        raise UnreadableDeck(f"{path}: cannot read: {exc}") from exc
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as exc:
        raise UnreadableDeck(f"{path}: not an Anki package: {exc}") from exc


def _no_collection(path: Path, names: set[str]) -> str:
    if _NEWER in names:
        return (
            f"{path}: written by a newer Anki export format; export it again with "
            "'Support older Anki versions' checked"
        )
    return f"{path}: no collection inside, not an .apkg"


def _read_collection(path: Path, database: Path) -> DeckFile:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        models_json, decks_json = connection.execute("select models, decks from col").fetchone()
        note_types = {int(k): _schema(v) for k, v in json.loads(models_json).items()}
        deck_names = {int(k): str(v["name"]) for k, v in json.loads(decks_json).items()}
        first_deck = dict(connection.execute("select nid, min(did) from cards group by nid"))
        rows = connection.execute("select id, guid, mid, mod, tags, flds from notes order by id")
        notes = {
            guid: StoredNote(
                guid=guid,
                note_type=int(mid),
                fields=tuple(str(flds).split("\x1f")),
                tags=tuple(str(tags).split()),
                mtime=int(mod),
                deck=deck_names.get(first_deck.get(nid, -1), ""),
            )
            for nid, guid, mid, mod, tags, flds in rows
        }
    finally:
        connection.close()
    return DeckFile(path, note_types, notes)


def _schema(model: dict[str, object]) -> NoteTypeSchema:
    fields = model["flds"]
    templates = model["tmpls"]
    if not isinstance(fields, list) or not isinstance(templates, list):
        raise ValueError(f"note type {model.get('name')!r} has no fields or templates")
    return NoteTypeSchema(
        id=int(str(model["id"])),
        name=str(model["name"]),
        is_cloze=model.get("type") == 1,
        fields=tuple(str(f["name"]) for f in fields),
        templates=tuple(str(t["name"]) for t in templates),
    )
