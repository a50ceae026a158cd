"""``--from crowdanki``: a CrowdAnki export (``deck.json`` and its ``media/`` folder).

The JSON holds the deck (``name``, ``notes``, sub-decks in ``children``) and
the note types (``note_models``, keyed by ``crowdanki_uuid``). Each note's
fields are Anki HTML and become markdown as for an ``.apkg``
(``note_items``), and each keeps its ``guid``. Media files are read from
``media/`` next to the JSON, by plain file name only. Scheduling is never read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Diagnostic
from ankigen.errors import UsageError
from ankigen.importers.apkg import NoteTypeSchema, StoredNote
from ankigen.importers.model import ImportResult, Origin
from ankigen.importers.note_items import notes_to_decks
from ankigen.importers.package_media import is_plain_name
from ankigen.importers.text_source import MAX_BYTES

_MAX_MEDIA = 64 * 1024 * 1024
_GUID = re.compile(r'"guid"\s*:\s*"((?:[^"\\]|\\.)*)"')


def import_source(source: Path) -> ImportResult:
    """Read ``source``: a CrowdAnki ``deck.json`` (or any ``.json``), or the folder holding it."""
    path = _json_file(source)
    if path.stat().st_size > MAX_BYTES:
        raise UsageError(f"{path}: over {MAX_BYTES // 2**20} MB, not a deck export to import")
    try:
        text = path.read_text("utf-8")
        deck = json.loads(text)
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: not a CrowdAnki JSON export: {exc}") from None
    if not isinstance(deck, dict) or deck.get("__type__") != "Deck":
        raise UsageError(f'{path}: not a CrowdAnki export (no top-level "__type__": "Deck")')
    models = _note_types(deck, path)
    ids = {uuid: index for index, uuid in enumerate(models, start=1)}
    shown = display_path(path)
    lines = _guid_lines(text)
    notes = [
        (note, Origin(shown, lines.get(note.guid, where.line)))
        for note, where in _notes(deck, "", ids, shown)
    ]
    media_folder = path.parent / "media"
    names = (
        frozenset(p.name for p in media_folder.glob("*") if p.is_file() and is_plain_name(p.name))
        if media_folder.is_dir()
        else frozenset()
    )
    problems: list[Diagnostic] = []
    decks = notes_to_decks(
        path.parent.name,
        notes,
        {ids[uuid]: schema for uuid, schema in models.items()},
        (names, lambda name: _read_media(media_folder, name)),
        problems,
    )
    return ImportResult(decks, tuple(problems))


def _guid_lines(text: str) -> dict[str, int]:
    """The line of each ``"guid": "…"`` in the JSON text (where a note's warnings point)."""
    lines: dict[str, int] = {}
    line, position = 1, 0
    for match in _GUID.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def _json_file(source: Path) -> Path:
    if source.is_file():
        return source
    candidates = [source / "deck.json", *sorted(source.glob("*.json"))]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        raise UsageError(f"{source}: no deck.json (a CrowdAnki export) in this folder")
    return found


def _note_types(deck: dict[str, object], path: Path) -> dict[str, NoteTypeSchema]:
    models = deck.get("note_models")
    if not isinstance(models, list):
        raise UsageError(f'{path}: no "note_models" list, not a CrowdAnki export')
    found = {}
    for index, model in enumerate(models, start=1):
        if not isinstance(model, dict):
            continue
        fields = [str(f.get("name", "")) for f in model.get("flds", []) if isinstance(f, dict)]
        templates = [str(t.get("name", "")) for t in model.get("tmpls", []) if isinstance(t, dict)]
        found[str(model.get("crowdanki_uuid", index))] = NoteTypeSchema(
            index,
            str(model.get("name", "")),
            model.get("type") == 1,
            tuple(fields),
            tuple(templates),
        )
    return found


def _notes(
    deck: dict[str, object], parent: str, ids: dict[str, int], shown: str, depth: int = 0
) -> Iterator[tuple[StoredNote, Origin]]:
    """Every note of ``deck`` and its sub-decks, with its deck's full name and its place."""
    name = f"{parent}::{deck.get('name', '')}" if parent else str(deck.get("name", ""))
    notes = deck.get("notes", [])
    for number, note in enumerate(notes if isinstance(notes, list) else [], start=1):
        if not isinstance(note, dict):
            continue
        fields = tuple(str(f) for f in note.get("fields", []))
        tags = tuple(str(t) for t in note.get("tags", []) if isinstance(t, str))
        model = ids.get(str(note.get("note_model_uuid")), 0)
        stored = StoredNote(
            str(note.get("guid", "")) or f"crowdanki-{name}-{number}", model, fields, tags, 0, name
        )
        yield stored, Origin(shown, number)
    children = deck.get("children", [])
    if depth < 32:
        for child in children if isinstance(children, list) else []:
            if isinstance(child, dict):
                yield from _notes(child, name, ids, shown, depth + 1)


def _read_media(folder: Path, name: str) -> bytes | None:
    path = folder / name
    if not is_plain_name(name) or not path.is_file() or path.is_symlink():
        return None
    if path.stat().st_size > _MAX_MEDIA:
        return None
    return path.read_bytes()
