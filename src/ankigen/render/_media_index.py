"""The sealed index of the formula images and figures a cache folder holds.

A media file in ``OUT/.cache`` is used again only while the index, sealed
with the folder's secret and written by the same code (``ankigen.cache``),
records it: the SHA-256 of its bytes, the formula sizes drawn with it, and
the identity its file had (inode, size, modification and change times in
nanoseconds). A file whose identity is the one recorded, and settled (not
changed in the two seconds before this build began: a second change in the
same tick of the file system's clock would keep its times), is not read
again; any other is read and must hash to the digest recorded, and its new
identity is recorded. A change time cannot be set back without changing
the clock, so a file written since it was indexed is always read again.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ankigen.cache import DEFAULT_TUNING, recipe

__all__ = ["MEDIA_INDEX", "Indexed", "MediaIndex"]

#: The index's name in the cache folder.
MEDIA_INDEX = "media-index"
_FORMAT = 2

#: What identifies one version of a file: st_ino, st_size, st_mtime_ns, st_ctime_ns.
Identity = tuple[int, int, int, int]


class SealedFolder(Protocol):
    """What the index needs of its cache folder."""

    def path(self, name: str) -> Path:
        """Where the file ``name`` is."""

    def read_sealed(self, name: str) -> bytes | None:
        """A sealed file's payload (None: missing, or not sealed here)."""

    def write_sealed(self, name: str, pieces: list[bytes]) -> None:
        """Write a sealed file."""

    def locked(self, name: str) -> AbstractContextManager[None]:
        """An exclusive lock on the lock file ``name``."""


@dataclass(frozen=True)
class Indexed:
    """What the index records of one media file."""

    digest: str
    identity: Identity | None
    sizes: tuple[float, ...]


class MediaIndex:
    """The index of one cache folder: this build's view, and what it adds."""

    def __init__(
        self,
        folder: SealedFolder,
        began_ns: int | None = None,
        settled_ns: int = DEFAULT_TUNING.settled_ns,
    ) -> None:
        """``began_ns``: when this build began (now by default), to tell settled files:
        one changed less than ``settled_ns`` before it is read and hashed, however it looks."""
        self._folder = folder
        self._began_ns = time.time_ns() if began_ns is None else began_ns
        self._settled_ns = settled_ns
        self._entries: dict[str, Indexed] | None = None
        self._added: dict[str, Indexed] = {}
        self._verified: dict[str, bool] = {}

    def sizes(self, name: str) -> tuple[float, ...]:
        """The sizes recorded with ``name`` (a formula image's), or ()."""
        entry = self._loaded().get(name)
        return entry.sizes if entry is not None else ()

    def names(self) -> list[str]:
        """The names the index on disk records now, sorted."""
        return sorted(self._read())

    def holds(self, name: str) -> bool:
        """True when ``name`` is indexed and its file holds the bytes recorded."""
        known = self._verified.get(name)
        if known is None:
            known = self._verified[name] = self._verify(name)
        return known

    def add(self, name: str, data: bytes, sizes: tuple[float, ...]) -> None:
        """Record a media file just written with ``data``."""
        identity = _identity(self._folder.path(name))
        entry = Indexed(hashlib.sha256(data).hexdigest(), identity, sizes)
        self._loaded()[name] = self._added[name] = entry
        self._verified[name] = True

    def save(self) -> None:
        """Add this build's entries to the index on disk, under a lock.

        Two builds into one output folder at once each read, merge and write
        the index, so neither loses the other's entries; entries written by
        other code (another ``code_fingerprint``) are dropped.
        """
        if not self._added:
            return
        with self._folder.locked(f"{MEDIA_INDEX}.lock"):
            merged = {**self._read(), **self._added}
            media = {
                name: [e.digest, list(e.identity) if e.identity else None, *e.sizes]
                for name, e in sorted(merged.items())
            }
            index = {"format": _FORMAT, "code": recipe.code_fingerprint(), "media": media}
            self._folder.write_sealed(
                MEDIA_INDEX, [json.dumps(index, separators=(",", ":")).encode()]
            )
        self._added = {}

    def _verify(self, name: str) -> bool:
        entry = self._loaded().get(name)
        path = self._folder.path(name)
        now = _identity(path)
        if entry is None or now is None:
            return False
        _, _, mtime_ns, ctime_ns = now
        if entry.identity == now and self._began_ns - max(mtime_ns, ctime_ns) >= self._settled_ns:
            return True  # not written since it was indexed: its bytes are the ones recorded
        if _file_digest(path) != entry.digest:
            return False
        self._loaded()[name] = self._added[name] = Indexed(entry.digest, now, entry.sizes)
        return True

    def _loaded(self) -> dict[str, Indexed]:
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def _read(self) -> dict[str, Indexed]:
        """The sealed index of this code's media; empty when missing, forged or foreign."""
        payload = self._folder.read_sealed(MEDIA_INDEX)
        try:
            stored = json.loads(payload) if payload is not None else {}
            if not isinstance(stored, dict) or stored.get("format") != _FORMAT:
                return {}
            if stored.get("code") != recipe.code_fingerprint():
                return {}
            return {
                name: entry
                for name, values in stored["media"].items()
                if (entry := _entry(values)) is not None
            }
        except (ValueError, TypeError, KeyError, AttributeError):
            return {}


def _entry(values: object) -> Indexed | None:
    """One entry, ``[sha256 hex, identity or null, *sizes]``; None for any other shape."""
    if not isinstance(values, list) or len(values) < 2 or not isinstance(values[0], str):
        return None
    identity, sizes = values[1], values[2:]
    if identity is not None and not (
        isinstance(identity, list) and len(identity) == 4 and all(type(n) is int for n in identity)
    ):
        return None
    if not all(type(s) in (int, float) and math.isfinite(s) for s in sizes):
        return None
    known = (identity[0], identity[1], identity[2], identity[3]) if identity else None
    return Indexed(values[0], known, tuple(float(s) for s in sizes))


def _identity(path: Path) -> Identity | None:
    """The identity of a regular file (None: missing, or not a regular file)."""
    try:
        status = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, not following a symlink ("" when unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
