"""Package stage: rendered notes and media in, one ``.apkg`` file per deck out.

The deck is written to a temporary file beside its target and renamed into
place, so a failed or interrupted build never leaves a partial deck over a
good one. Bytes are reproducible: every timestamp comes from the build time
given, and zip entries are written in a fixed order with fixed dates.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import BinaryIO

import genanki

from ankigen.model import ItemKind, MediaFile, Note, PackagedDeck, RenderedDeck
from ankigen.package.anki_cards import cloze_ordinals
from ankigen.package.collection import NoteRow, RowDeck
from ankigen.package.media_pack import MediaPack
from ankigen.package.memo import PackageMemo, media_sources
from ankigen.package.note_types import cloze_model, reveal_model
from ankigen.package.release import release_tag
from ankigen.package.zip_writer import Deflated, ZipWriter, deflate, deflate_pieces
from ankigen.render import MediaCache

__all__ = ["COLLECTION_LEVEL", "card_ordinals", "deck_id", "write_deck"]

#: The deflate level of the collection entry (media keep zlib's default, 6). The
#: collection is rewritten whole by every build, edits included (every row holds the
#: deck's time), and deflating it was the longest step of a warm 10,000-item round:
#: 10.8 MB took 109 ms of CPU at level 6 and 39 ms at level 1, for 1.37 MB against
#: 1.66 MB in the deck (SQLite pages: levels 2-3 cost as much as 1 and gain 3%).
#: Anki reads any level (``tests/e2e`` import every deck into it).
COLLECTION_LEVEL = 1


def deck_id(deck_key: str, subdeck: str = "") -> int:
    """A stable deck id from the deck key (and subdeck name), never from the display name."""
    digest = hashlib.sha256(f"{deck_key}\x1f{subdeck}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:6], "big") % (1 << 40)


def card_ordinals(kind: ItemKind, fields: Sequence[str]) -> tuple[int, ...]:
    """The cards of a note, by ordinal: the one reveal card, or one per cloze number in
    Text as Anki counts them (nested clozes too; genanki's own count misses those)."""
    return cloze_ordinals(fields[0]) if kind is ItemKind.CLOZE else (0,)


def _ordinals(note: Note) -> tuple[int, ...]:
    return card_ordinals(note.kind, note.fields)


def write_deck(
    rendered: RenderedDeck,
    out_dir: Path,
    timestamp: float,
    note_times: Mapping[str, float] | None = None,
    *,
    cache: MediaCache | None = None,
    memo: PackageMemo | None = None,
) -> PackagedDeck:
    """Write ``out_dir/<stem>.apkg`` atomically.

    ``timestamp`` stamps the deck, its note types and its release tag;
    ``note_times`` (by GUID) stamps each note and its cards (default: ``timestamp``).
    With a ``cache``, media deflated by an earlier build are reused from it, and
    this build's are kept there for the next (same bytes either way). With a
    ``memo`` (a warm process's), media entries the last deck of this stem shipped
    as they are come from memory, not from the cache (same bytes again).
    """
    deck = rendered.deck
    times = note_times or {}
    release = release_tag(deck.key, timestamp)
    decks: dict[str, RowDeck] = {}
    cards = 0
    models = {ItemKind.CLOZE: cloze_model(), ItemKind.REVEAL: reveal_model()}
    tagged: dict[tuple[str, ...], tuple[str, ...]] = {}
    notes = rendered.notes
    if memo is not None:
        note_cards = memo.cards(deck.stem, notes, _ordinals)
    else:
        note_cards = [_ordinals(note) for note in notes]
    for position, (note, ordinals) in enumerate(zip(notes, note_cards, strict=True)):
        target = decks.get(note.deck_name)
        if target is None:
            subdeck = "" if note.deck_name == deck.name else note.deck_name
            target = decks[note.deck_name] = RowDeck(deck_id(deck.key, subdeck), note.deck_name)
        # Each note and its cards carry the note's own time, not the deck's; `due` is
        # the new-card position: cards come up in the order of the file.
        mtime = times.get(note.guid, timestamp)
        # One tuple per distinct tag set, not one per note (100,000 notes, a few sets).
        tags = tagged.get(note.tags)
        if tags is None:
            tags = tagged[note.tags] = (*note.tags, release)
        target.add_row(
            NoteRow(models[note.kind], note.fields, note.guid, tags, position, mtime, ordinals)
        )
        cards += len(ordinals)
    if deck.name not in decks:
        decks[deck.name] = RowDeck(deck_id(deck.key), deck.name)
    package = genanki.Package(list(decks.values()))
    out_dir.mkdir(parents=True, exist_ok=True)
    target_path = out_dir / f"{deck.stem}.apkg"
    media = rendered.media
    sources = media_sources(media) if memo is not None else []
    remembered = memo.deflated_media(deck.stem, media, sources) if memo is not None else None
    if remembered is not None:
        # The cache's pack already holds these entries: the round that filled the memo
        # saved them, so it is neither read nor written.
        _write_atomically(package, media, remembered, target_path, timestamp)
    else:
        with MediaPack(cache, deck.stem) as pack:
            entries: list[Deflated] = []
            written = _kept(pack.deflated_all(media), entries if memo is not None else None)
            _write_atomically(package, media, written, target_path, timestamp)
            pack.save()
        if memo is not None:
            memo.remember(deck.stem, media, sources, entries)
    return PackagedDeck(target_path, len(rendered.notes), cards, len(rendered.media))


def _kept(entries: Iterable[Deflated], kept: list[Deflated] | None) -> Iterator[Deflated]:
    """``entries`` as they come, each also appended to ``kept`` (None: kept nowhere)."""
    for entry in entries:
        if kept is not None:
            kept.append(entry)
        yield entry


def _write_atomically(
    package: genanki.Package,
    media: Sequence[MediaFile],
    entries: Iterable[Deflated],
    target: Path,
    timestamp: float,
) -> None:
    """Write the deck beside its target, then rename it into place.

    The scratch collection is written beside the target too, never in TMPDIR:
    a full or missing temporary folder cannot fail a build, and whatever goes
    wrong (a full disk, ``ulimit -f``, Ctrl-C, SIGTERM) both scratch files are
    removed on the way out.
    """
    temp = _scratch(target, ".tmp")
    collection = _scratch(target, ".anki2.tmp")
    try:
        _write_collection(package, collection, timestamp)
        _write_zip(collection, media, entries, temp, timestamp)
        os.replace(temp, target)
    finally:
        collection.unlink(missing_ok=True)
        temp.unlink(missing_ok=True)


def _scratch(target: Path, suffix: str) -> Path:
    """A new, empty, hidden file beside ``target``, with the permissions of any new file.

    Created with mode 0666 so the kernel applies the user's umask, as for any
    file they create (``mkstemp`` would make it 0600, and reading the umask
    means changing it process-wide for a moment).
    """
    while True:
        path = target.parent / f".{target.stem}-{secrets.token_hex(6)}{suffix}"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return path


def _write_collection(package: genanki.Package, path: Path, timestamp: float) -> None:
    """genanki fills an Anki collection database; ids and times come from ``timestamp``."""
    connection = sqlite3.connect(path)
    try:
        # No journal or temporary files: nothing beside the database to leave behind.
        connection.execute("pragma journal_mode = off")
        connection.execute("pragma temp_store = memory")
        # A scratch file, zipped then removed: no fsync at each commit (genanki's schema
        # script commits twice; the syncs cost 20-70 ms of a 1,000-item watch round).
        connection.execute("pragma synchronous = off")
        package.write_to_db(connection.cursor(), timestamp, itertools.count(int(timestamp * 1000)))
        connection.commit()
    finally:
        connection.close()


def _write_zip(
    collection: Path,
    media: Sequence[MediaFile],
    entries: Iterable[Deflated],
    target: Path,
    timestamp: float,
) -> None:
    """The ``.apkg`` zip: the collection, the media map, then media (``entries``: their
    deflated bytes, in the same order), in a fixed order.

    Every entry has the same date (the build time) and permissions, so the
    same deck gives the same bytes. Media entries are numbered; the map names
    each by the file name the cards reference.
    """
    date = time.gmtime(max(timestamp, 315532800))[:6]  # zip dates start in 1980
    media_map = deflate(json.dumps({str(i): file.name for i, file in enumerate(media)}).encode())
    with target.open("wb") as out:
        archive = ZipWriter(out, date)
        if not media:
            # Streamed: a 100,000-note collection is never held in memory whole.
            # zlib's output does not depend on how its input is cut into writes.
            with collection.open("rb") as rows:
                pieces = iter(partial(rows.read, 1 << 20), b"")
                size = collection.stat().st_size
                archive.add_stream("collection.anki2", pieces, size, COLLECTION_LEVEL)
            archive.add("media", media_map)
            archive.finish()
            return
        # With media, zlib deflates the collection on another core (it lets go of the
        # GIL) while this thread writes the map and the media entries to a scratch file
        # (in memory when they all are already: a warm process's memo); they are then
        # copied after the collection's entry as they are.
        if isinstance(entries, list):
            _write_media(archive, collection, media_map, entries, io.BytesIO())
            return
        tail = _scratch(target, ".media.tmp")
        try:
            with tail.open("w+b") as scratch:
                _write_media(archive, collection, media_map, entries, scratch)
        finally:
            tail.unlink(missing_ok=True)


def _write_media(
    archive: ZipWriter,
    collection: Path,
    media_map: Deflated,
    entries: Iterable[Deflated],
    scratch: BinaryIO,
) -> None:
    """The rest of the zip: the collection (deflated on a second thread), the media map
    and the media, written to ``scratch`` meanwhile, then the central directory."""
    with ThreadPoolExecutor(1) as worker:
        deflating = worker.submit(_deflate_file, collection)
        part = ZipWriter(scratch, archive.date)
        part.add("media", media_map)
        for index, deflated in enumerate(entries):
            part.add(str(index), deflated)
        archive.add("collection.anki2", deflating.result())
        archive.extend(part)
    archive.finish()


def _deflate_file(path: Path) -> Deflated:
    """The collection deflated as ``ZipFile`` deflates an entry at ``COLLECTION_LEVEL``,
    read in large pieces (few ``compress`` calls keep this thread off the other
    thread's way)."""
    with path.open("rb") as rows:
        return deflate_pieces(iter(partial(rows.read, 4 << 20), b""), COLLECTION_LEVEL)
