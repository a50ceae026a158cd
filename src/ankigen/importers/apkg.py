"""Read an ``.apkg`` with the standard library: its note types and notes, as Anki sees them.

Only what deciding a re-import needs: each note type's id, kind, field and
template names (its schema), and each note's GUID, note type, fields, tags,
modification time and deck. Reads the legacy collection (``collection.anki21``
or ``collection.anki2``), which genanki and Anki's "support older versions"
export write.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ankigen.errors import AnkigenError

_COLLECTIONS = ("collection.anki21", "collection.anki2")
_NEWER = "collection.anki21b"  # zstd-compressed: not readable with the standard library


#: The most bytes a package's collection may decompress to.
MAX_COLLECTION_BYTES = 512 << 20
#: ... and at most this many times its compressed size, once above RATIO_FROM bytes.
MAX_RATIO = 50
RATIO_FROM = 32 << 20
#: How deeply the collection's JSON (note types, decks) may nest, and how long it may be
#: (each parsed value costs far more memory than its text).
MAX_JSON_DEPTH = 64
MAX_JSON_CHARS = 32 << 20
#: The most notes a package may hold.
MAX_NOTES = 1_000_000
#: Seconds the queries that read one collection may take together.
QUERY_SECONDS = 10.0
_PROGRESS_STEPS = 10_000
_CHUNK = 1 << 20
#: What opens or closes a JSON level, strings skipped whole.
_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


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
    """Read ``path``; raise :class:`UnreadableDeck` when it is not a readable package.

    The package may come from anyone: its collection is decompressed within
    a budget (:data:`MAX_COLLECTION_BYTES`, :data:`MAX_RATIO`), its JSON read
    with a depth limit and no non-finite number, its queries stopped after
    :data:`QUERY_SECONDS`. Whatever is wrong is an ``UnreadableDeck``.
    """
    try:
        with zipfile.ZipFile(path) as archive, tempfile.TemporaryDirectory() as tmp:
            names = set(archive.namelist())
            member = next((n for n in _COLLECTIONS if n in names), None)
            # A newer export's collection.anki2 is a stub that says "update Anki".
            if member is None or (member == "collection.anki2" and _NEWER in names):
                raise UnreadableDeck(_no_collection(path, names))
            database = Path(tmp) / "collection"
            _extract(path, archive, archive.getinfo(member), database)
            return _read_collection(path, database)
    except (OSError, zipfile.BadZipFile, EOFError, NotImplementedError) as exc:
        raise UnreadableDeck(f"{path}: cannot read: {exc}") from exc
    except (
        sqlite3.DatabaseError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        RecursionError,
    ) as exc:
        raise UnreadableDeck(f"{path}: not an Anki package: {exc}") from exc


def _no_collection(path: Path, names: set[str]) -> str:
    if _NEWER in names:
        return (
            f"{path}: written by a newer Anki export format; export it again with "
            "'Support older Anki versions' checked"
        )
    return f"{path}: no collection inside, not an .apkg"


def _extract(path: Path, archive: zipfile.ZipFile, member: zipfile.ZipInfo, target: Path) -> None:
    """Decompress ``member`` into ``target``, refusing it past its budget (a zip bomb).

    The budget is what the collection may hold at most, and at most
    :data:`MAX_RATIO` times its compressed size (above :data:`RATIO_FROM`),
    counted on the bytes as they come: the size the archive declares may lie.
    """
    budget = min(MAX_COLLECTION_BYTES, max(RATIO_FROM, member.compress_size * MAX_RATIO))
    refusal = UnreadableDeck(
        f"{path}: its collection decompresses to more than {budget >> 20} MiB "
        f"({member.compress_size} bytes compressed); not a deck ankigen reads"
    )
    if member.file_size > budget:
        raise refusal
    written = 0
    with archive.open(member) as source, target.open("wb") as sink:
        while chunk := source.read(_CHUNK):
            written += len(chunk)
            if written > budget:
                raise refusal
            sink.write(chunk)


def _read_collection(path: Path, database: Path) -> DeckFile:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    deadline = time.monotonic() + QUERY_SECONDS
    # Called every few thousand steps of a query: a crafted view cannot run for ever.
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    try:
        models_json, decks_json = connection.execute("select models, decks from col").fetchone()
        models, decks = _json(models_json, "models"), _json(decks_json, "decks")
        if not isinstance(models, dict) or not isinstance(decks, dict):
            raise ValueError("its note types or decks are not JSON objects")
        note_types = {_whole(k): _schema(v) for k, v in models.items()}
        deck_names = {_whole(k): str(v["name"]) for k, v in decks.items()}
        first_deck = dict(connection.execute("select nid, min(did) from cards group by nid"))
        rows = connection.execute(
            f"select id, guid, mid, mod, tags, flds from notes order by id limit {MAX_NOTES + 1}"
        )
        notes = {
            str(guid): StoredNote(
                guid=str(guid),
                note_type=_whole(mid),
                fields=tuple(str(flds).split("\x1f")),
                tags=tuple(str(tags).split()),
                mtime=_whole(mod),
                deck=deck_names.get(first_deck.get(nid, -1), ""),
            )
            for nid, guid, mid, mod, tags, flds in rows
        }
        if len(notes) > MAX_NOTES:
            raise ValueError(f"it holds more than {MAX_NOTES} notes")
    except sqlite3.OperationalError as exc:
        if time.monotonic() > deadline:
            raise UnreadableDeck(
                f"{path}: reading its collection took more than {QUERY_SECONDS:g} s; "
                "not a deck ankigen reads"
            ) from exc
        raise
    finally:
        connection.close()
    return DeckFile(path, note_types, notes)


def _json(text: object, what: str) -> object:
    """A JSON column, refused when it nests too deeply or holds NaN or infinity."""
    if not isinstance(text, str):
        raise ValueError(f"its {what} are not JSON text")
    if len(text) > MAX_JSON_CHARS:
        raise ValueError(f"its {what} are more than {MAX_JSON_CHARS >> 20} MiB of JSON")
    depth = 0
    for token in _JSON_NESTING.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"its {what} nest more than {MAX_JSON_DEPTH} deep")
        elif bracket in "]}":
            depth -= 1
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a deck holds")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _whole(value: object) -> int:
    """An id or time: a whole number (as text in JSON keys), never NaN or infinite."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    raise ValueError(f"{value!r} is not a whole number")


def _schema(model: object) -> NoteTypeSchema:
    if not isinstance(model, dict):
        raise ValueError("a note type is not a JSON object")
    fields = model["flds"]
    templates = model["tmpls"]
    if not isinstance(fields, list) or not isinstance(templates, list):
        raise ValueError(f"note type {model.get('name')!r} has no fields or templates")
    return NoteTypeSchema(
        id=_whole(model["id"]),
        name=str(model["name"]),
        is_cloze=model.get("type") == 1,
        fields=tuple(str(f["name"]) for f in fields),
        templates=tuple(str(t["name"]) for t in templates),
    )
