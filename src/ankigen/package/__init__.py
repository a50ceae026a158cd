"""Package stage: rendered notes and media in, one ``.apkg`` file per deck out.

The deck is written to a temporary file beside its target and renamed into
place, so a failed or interrupted build never leaves a partial deck over a
good one. Bytes are reproducible: every timestamp comes from the build time
given, and zip entries are written in a fixed order with fixed dates.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import genanki

from ankigen.model import ItemKind
from ankigen.package.note_types import cloze_model, reveal_model
from ankigen.render import RenderedDeck

__all__ = ["PackagedDeck", "deck_id", "write_deck"]


@dataclass(frozen=True)
class PackagedDeck:
    """A written deck: where it is and what it holds."""

    path: Path
    notes: int
    cards: int
    media: int


def deck_id(deck_key: str, subdeck: str = "") -> int:
    """A stable deck id from the deck key (and subdeck name), never from the display name."""
    digest = hashlib.sha256(f"{deck_key}\x1f{subdeck}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:6], "big") % (1 << 40)


def write_deck(rendered: RenderedDeck, out_dir: Path, timestamp: float) -> PackagedDeck:
    """Write ``out_dir/<stem>.apkg`` atomically, with ``timestamp`` as every time in it."""
    deck = rendered.deck
    decks: dict[str, genanki.Deck] = {}
    cards = 0
    for position, note in enumerate(rendered.notes):
        target = decks.get(note.deck_name)
        if target is None:
            subdeck = "" if note.deck_name == deck.name else note.deck_name
            target = decks[note.deck_name] = genanki.Deck(deck_id(deck.key, subdeck),
                                                          note.deck_name)
        model = cloze_model() if note.kind is ItemKind.CLOZE else reveal_model()
        # `due` is the new-card position: cards come up in the order of the file.
        gnote = genanki.Note(model=model, fields=list(note.fields), guid=note.guid,
                             tags=list(note.tags), due=position, sort_field=note.fields[0])
        cards += len(gnote.cards)
        target.add_note(gnote)
    if deck.name not in decks:
        decks[deck.name] = genanki.Deck(deck_id(deck.key), deck.name)
    package = genanki.Package(list(decks.values()),
                              media_files=[str(m.path) for m in rendered.media])
    out_dir.mkdir(parents=True, exist_ok=True)
    target_path = out_dir / f"{deck.stem}.apkg"
    _write_atomically(package, target_path, timestamp)
    return PackagedDeck(target_path, len(rendered.notes), cards, len(rendered.media))


def _write_atomically(package: genanki.Package, target: Path, timestamp: float) -> None:
    fd, raw_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}-",
                                    suffix=".raw")
    os.close(fd)
    raw = Path(raw_name)
    final = raw.with_suffix(".tmp")
    try:
        package.write_to_file(str(raw), timestamp=timestamp)
        _normalise_zip(raw, final, timestamp)
        final.chmod(0o666 & ~_umask())
        os.replace(final, target)
    finally:
        raw.unlink(missing_ok=True)
        final.unlink(missing_ok=True)


def _normalise_zip(source: Path, target: Path, timestamp: float) -> None:
    """Rewrite genanki's zip with fixed entry dates and order.

    genanki stamps media entries with their files' modification times; the
    media map names each file by its basename, which is the cache name the
    cards reference.
    """
    date = time.gmtime(max(timestamp, 315532800))[:6]  # zip dates start in 1980
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(
        target, "w", compression=zipfile.ZIP_DEFLATED
    ) as zout:
        for name in sorted(zin.namelist(), key=_entry_order):
            info = zipfile.ZipInfo(name, date_time=date)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info, zin.read(name))


def _entry_order(name: str) -> tuple[int, int, str]:
    if name == "collection.anki2":
        return (0, 0, name)
    if name == "media":
        return (1, 0, name)
    return (2, int(name) if name.isdigit() else 0, name)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
