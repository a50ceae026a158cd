"""What a warm process (``ankigen watch``) keeps from one deck it wrote to the next.

A watch round after a one-answer edit ships the same media, and most of the
same notes (the very same objects: ``render`` takes them from its last
round), as the round before. Reading their deflated bytes back from the build cache's pack
(``media_pack``: a store read, a codec decode and an inflate per entry) cost
about as much as the rest of packaging at 10,000 items (2,500 formula
images). The memo keeps, per deck, each media entry's deflated bytes beside
what they were made from (the bytes themselves, or the file's size and
modification time: the pack's own key), in this process's memory only.

The memo is an explicit object: the watcher owns it (``WatchState``) and
hands it to each build (``BuildOptions.package_memo``); a build without one
(every other command, ``--no-cache``) takes the slow path. A deck's bytes do
not depend on it: an entry is the same function of the same bytes either way
(``tests/perf/test_watch_edits.py`` compares the two over a sequence of edits).
It also keeps each note's card ordinals (``cards``), by the note itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ankigen.cache import Decoded
from ankigen.model import MediaFile, Note
from ankigen.package.zip_writer import Deflated

__all__ = ["MEDIA_LIMIT", "MediaSource", "PackageMemo", "media_sources"]

#: The most deflated media bytes kept for one deck (a deck of large photographs is
#: served by the pack, as it is without a memo, rather than held in memory).
MEDIA_LIMIT = 256 << 20

#: What a media entry was made from: its bytes held in memory, or its file's
#: (size, modification time in ns).
MediaSource = bytes | tuple[int, int]


@dataclass(eq=False)
class PackageMemo:
    """Per deck stem, the deflated media entries of the deck last written, by name."""

    media: dict[str, dict[str, tuple[MediaSource, Deflated]]] = field(default_factory=dict)
    #: What was worked out from the last round's notes (their card ordinals).
    derived: Decoded = field(default_factory=Decoded)

    def cards(
        self, stem: str, notes: Sequence[Note], ordinals: Callable[[Note], tuple[int, ...]]
    ) -> list[tuple[int, ...]]:
        """``ordinals`` of each note of deck ``stem``; a note the last deck held, the
        same object, has them worked out already (``Decoded.derived``)."""
        return self.derived.derived("card-ordinals", stem, "", notes, ordinals)

    def deflated_media(
        self, stem: str, files: Sequence[MediaFile], sources: Sequence[MediaSource]
    ) -> list[Deflated] | None:
        """The deflated entries of ``files`` (made from ``sources``, see ``sources``), in
        order, when the last deck of ``stem`` shipped exactly these files made from the
        same; else None (take them from the pack)."""
        known = self.media.get(stem)
        if known is None or len(known) != len(files):
            return None
        entries: list[Deflated] = []
        for file, source in zip(files, sources, strict=True):
            kept = known.get(file.name)
            if kept is None or kept[0] != source:
                return None
            entries.append(kept[1])
        return entries

    def remember(
        self,
        stem: str,
        files: Sequence[MediaFile],
        sources: Sequence[MediaSource],
        entries: Sequence[Deflated],
    ) -> None:
        """Keep the entries just written for ``stem`` (only these: one deck's media).

        ``sources`` are taken before the entries are made: a file changed meanwhile
        is then seen as changed by the next round, never kept under its new version.
        """
        if sum(len(entry.data) for entry in entries) > MEDIA_LIMIT:
            self.media.pop(stem, None)  # a deck of large images: the pack serves it
            return
        self.media[stem] = {
            file.name: (source, entry)
            for file, source, entry in zip(files, sources, entries, strict=True)
        }


def media_sources(files: Sequence[MediaFile]) -> list[MediaSource]:
    """What each file's entry is made from: its held bytes, else its file's size and time.

    Bytes are compared whole (a memory compare), never by a hash; a file on disk
    by the version the build cache's pack keys it by.
    """
    return [_source(file) for file in files]


def _source(file: MediaFile) -> MediaSource:
    if file.data is not None:
        return file.data
    if file.path is None:
        raise ValueError(f"media file {file.name} has neither bytes nor a path")
    info = file.path.stat()
    return (info.st_size, info.st_mtime_ns)
