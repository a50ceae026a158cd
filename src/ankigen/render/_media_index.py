"""The index of the formula images and figures a cache folder holds.

A media file in ``OUT/.cache`` is used again only while the index (rows of
the build cache's store, kind ``media``, sealed with this user's cache key and
scoped by the code that wrote them: ``recipe.code_fingerprint``) records
it: the SHA-256 of its bytes, the formula sizes drawn with it, and
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
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ankigen.cache import DEFAULT_TUNING, Codec, Decoded, Store, recipe

__all__ = ["Indexed", "MediaIndex"]

_KIND = "media"

#: What identifies one version of a file: st_ino, st_size, st_mtime_ns, st_ctime_ns.
Identity = tuple[int, int, int, int]


class IndexedFolder(Protocol):
    """What the index needs of its cache folder: where a file is, the store, and what a
    long-lived process decoded from it in earlier rounds (None: nothing)."""

    @property
    def store(self) -> Store:
        """The folder's store."""

    @property
    def decoded(self) -> Decoded | None:
        """Values decoded from the store by earlier builds of this process."""

    def path(self, name: str) -> Path:
        """Where the file ``name`` is."""


@dataclass(frozen=True)
class Indexed:
    """What the index records of one media file."""

    digest: str
    identity: Identity | None
    sizes: tuple[float, ...]


_CODEC = Codec([Indexed])


class MediaIndex:
    """The index of one cache folder: this build's view, and what it adds."""

    def __init__(
        self,
        folder: IndexedFolder,
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
        """Add this build's entries to the index in the store.

        Two builds into one output folder at once each add their own rows, so
        neither loses the other's; rows written by other code (another
        ``code_fingerprint``) are never read.
        """
        if not self._added:
            return
        rows = {_name_key(name): _CODEC.dumps(entry) for name, entry in self._added.items()}
        self._folder.store.write(_KIND, recipe.code_fingerprint(), rows)
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
        """The index of this code's media; rows forged, damaged or of other code left out.

        A long-lived process (``ankigen watch``: the folder's ``decoded``) decodes only
        the rows whose bytes it did not decode in an earlier round.
        """
        fingerprint = recipe.code_fingerprint()
        decoded = self._folder.decoded
        known = decoded.of(_KIND, fingerprint) if decoded is not None else {}
        entries: dict[str, Indexed] = {}
        kept: dict[bytes, tuple[bytes, int, Indexed]] = {}
        for key, value in self._folder.store.scope(_KIND, fingerprint).items():
            last = known.get(key)
            if last is not None and last[0] == value:
                entry = last[2]
            else:
                try:
                    entry = _CODEC.loads(value)
                except (TypeError, ValueError):
                    continue
                if not isinstance(entry, Indexed):
                    continue
            kept[key] = (value, 0, entry)
            entries[key.decode("utf-8", "surrogateescape")] = entry
        if decoded is not None:  # only the rows the store holds now
            known.clear()
            known.update(kept)
        return entries


def _name_key(name: str) -> bytes:
    return name.encode("utf-8", "surrogateescape")


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
