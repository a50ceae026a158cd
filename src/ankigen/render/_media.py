"""Media files, the on-disk cache they live in until packaging, and what shipping one gives.

An image or a figure is either ``Shipped`` (a media file, and the file it was
made from) or ``Failed`` (a ``Diagnostic`` at the ``Place`` that referenced it).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.cache import DEFAULT_TUNING, CacheTuning, Decoded, Store
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

    A media file counts as cached (``has``) only when the folder's index
    (``_media_index``: sealed rows of the store), written by a build of the
    same code, records it and its bytes are still the ones recorded: a file
    put there by anyone else is drawn again, never shipped. Every other cache
    keeps its records in the same store (``store``).
    """

    def __init__(
        self, folder: Path, tuning: CacheTuning = DEFAULT_TUNING, decoded: Decoded | None = None
    ) -> None:
        """``tuning``: the thresholds of this folder's caches (memory held, settled files);
        ``decoded``: values decoded from the store by earlier builds of this process."""
        self.folder = folder
        self.tuning = tuning
        self.decoded = decoded
        self._held = 0
        #: The folder's store of every cache's records (``ankigen.cache.store``), opened when
        #: used; a long-lived process's (``decoded``) stays open from one build to the next.
        self.store = decoded.store(folder) if decoded is not None else Store(folder)
        self._own_store = decoded is None
        self._index = MediaIndex(self, settled_ns=tuning.settled_ns)

    def close(self) -> None:
        """Close the folder's store (it opens again if used), unless a long-lived process
        keeps it open between its builds."""
        if self._own_store:
            self.store.close()

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
        """True when ``name`` is cached: in the index, its bytes those recorded."""
        return self._index.holds(name)

    def indexed(self) -> list[str]:
        """The names the index in the store records now, sorted."""
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
        """Add this build's media to the index in the store (``_media_index``)."""
        self._index.save()

    def write(self, name: str, data: bytes | Sequence[bytes]) -> Path:
        """Store bytes (or pieces written one after the other) under ``name`` atomically:
        written to a temporary name and renamed, so a crash never leaves half a file."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(name)
        fd, temp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                for piece in (data,) if isinstance(data, bytes) else data:
                    handle.write(piece)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        return target

    def get(self, name: str) -> MediaFile:
        """The cached media file ``name`` (check ``has`` first)."""
        return MediaFile(name, self.path(name))
