"""``ankigen import DECK.apkg``: each deck of a package as content, each note as an item.

The package is checked for its sizes first (``package_media.check_archive``),
its notes read by ``ankigen.importers.apkg`` (the reader ``ankigen diff`` uses) and its
media map by ``package_media``; ``note_items`` turns the notes into decks.
Scheduling is never read.
"""

from __future__ import annotations

from pathlib import Path

from ankigen.diagnostics import Diagnostic
from ankigen.importers.apkg import read_deck_file
from ankigen.importers.model import ImportResult, Origin
from ankigen.importers.note_items import notes_to_decks
from ankigen.importers.package_media import check_archive, read_media


def import_package(path: Path) -> ImportResult:
    """Read ``path`` (raises ``UnreadableDeck`` for a package that cannot be read safely)."""
    check_archive(path)
    deck_file = read_deck_file(path)
    media = read_media(path)
    problems: list[Diagnostic] = [
        Origin(path.name, 1).lost(f"media file named '{name}' (not a plain file name)")
        for name in media.refused
    ]
    notes = (
        (note, Origin(path.name, number))
        for number, note in enumerate(deck_file.notes.values(), start=1)
    )
    media_access = (frozenset(media.entries), media.read)
    decks = notes_to_decks(path.stem, notes, deck_file.note_types, media_access, problems)
    return ImportResult(decks, tuple(problems))
