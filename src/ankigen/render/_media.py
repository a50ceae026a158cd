"""Media files, the on-disk cache they live in until packaging, and what shipping one gives.

An image or a figure is either ``Shipped`` (a media file, and the file it was
made from) or ``Failed`` (a ``Diagnostic`` at the ``Place`` that referenced it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.cache import DEFAULT_TUNING, CacheFolder, CacheTuning, Sealer
from ankigen.diagnostics import Diagnostic, error
from ankigen.model import MediaFile
from ankigen.render._media_index import MediaIndex


@dataclass(frozen=True)
class Place:
    """Where content refers to an image or figure: its file (as shown), line and column."""

    file: str
    line: int
    column: int = 0

    def failed(self, message: str, detail: str = "", *, code: str) -> Failed:
        """The error for a reference here that cannot be shipped."""
        return Failed(error(self.file, self.line, message, detail, column=self.column, code=code))


@dataclass(frozen=True)
class Shipped:
    """A media file on its way into the deck, and the image or script it was made from."""

    media: MediaFile
    source: Path
    #: A figure drawn by this build (False: taken from the cache, or an image file).
    drawn: bool = False


@dataclass(frozen=True)
class Failed:
    """An image or figure that is not in the deck, and the error that says why."""

    diagnostic: Diagnostic


#: What shipping one image or drawing one figure gives.
ShipResult = Shipped | Failed


def content_hash(*parts: str | bytes) -> str:
    """A short, stable hash of the parts (names media by content)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8") if isinstance(part, str) else part)
        digest.update(b"\x1f")
    return digest.hexdigest()[:20]


class MediaCache:
    """A folder of rendered media keyed by file name (names carry the hash), and its index.

    A media file counts as cached (``has``) only when the folder's sealed index
    (``_media_index``), written by a build of the same code, records it and
    its bytes are still the ones recorded: a file put there by anyone else is
    drawn again, never shipped. Every other cache file of the folder is sealed
    too (``write_sealed``).
    """

    def __init__(self, folder: Path, tuning: CacheTuning = DEFAULT_TUNING) -> None:
        """``tuning``: the thresholds of this folder's caches (memory held, settled files)."""
        self.folder = folder
        self.tuning = tuning
        self._held = 0
        self._files = CacheFolder(folder)
        self._index = MediaIndex(self._files, settled_ns=tuning.settled_ns)

    @property
    def sealer(self) -> Sealer:
        """The folder's sealer (its secret made on first use)."""
        return self._files.sealer

    def hold(self, name: str, data: bytes) -> MediaFile:
        """Media that needs no cache file: kept in memory, or cached once too many are held.

        Packaging reads the bytes either way; only the memory held is bounded.
        A cache file is written even when one of that name exists: what ships
        is these bytes.
        """
        if self._held + len(data) > self.tuning.held_bytes:
            return self.put(name, data)
        self._held += len(data)
        return MediaFile(name, None, data)

    def path(self, name: str) -> Path:
        """Where the media file ``name`` is (or would be) cached."""
        return self.folder / name

    def has(self, name: str) -> bool:
        """True when ``name`` is cached: in the sealed index, its bytes those recorded."""
        return self._index.holds(name)

    def indexed(self) -> list[str]:
        """The names the sealed index on disk records now, sorted."""
        return self._index.names()

    def sizes(self, name: str) -> tuple[float, ...]:
        """The sizes recorded with a cached media file (a formula image's), or ()."""
        return self._index.sizes(name)

    def put(self, name: str, data: bytes, sizes: tuple[float, ...] = ()) -> MediaFile:
        """Store a media file atomically, and record it (with ``sizes``) for the index."""
        target = self.write(name, data)
        self._index.add(name, data, sizes)
        return MediaFile(name, target)

    def save_index(self) -> None:
        """Add this build's media to the sealed index (``_media_index``)."""
        self._index.save()

    def write(self, name: str, data: bytes | Sequence[bytes]) -> Path:
        """Store bytes (or pieces) under ``name`` atomically (``CacheFolder.write``)."""
        return self._files.write(name, data)

    def write_sealed(self, name: str, pieces: Sequence[bytes]) -> None:
        """Store a cache file sealed with the folder's secret (``read_sealed`` reads it)."""
        self._files.write_sealed(name, pieces)

    def read_sealed(self, name: str) -> bytes | None:
        """The payload of a sealed cache file; None when missing or not sealed here."""
        return self._files.read_sealed(name)

    def get(self, name: str) -> MediaFile:
        """The cached media file ``name`` (check ``has`` first)."""
        return MediaFile(name, self.path(name))
