"""The build's cache folder as files: atomic writes, sealed files, and locks.

Every cache of a build writes through one ``CacheFolder``: a file is written
to a temporary name and renamed into place (a crash never leaves half a
file), a cache file is sealed with the folder's secret (``seal``), and two
builds into one folder take turns under an advisory lock where merging.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from ankigen.cache.lock import exclusive
from ankigen.cache.seal import Sealer

__all__ = ["CacheFolder"]


class CacheFolder:
    """One cache folder (``OUT/.cache``); its secret is made on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._sealer: Sealer | None = None

    @property
    def sealer(self) -> Sealer:
        """The folder's sealer (its secret made on first use)."""
        if self._sealer is None:
            self._sealer = Sealer.for_folder(self.folder)
        return self._sealer

    def path(self, name: str) -> Path:
        """Where the file ``name`` is (or would be)."""
        return self.folder / name

    def write(self, name: str, data: bytes | Sequence[bytes]) -> Path:
        """Store bytes (or pieces written one after the other) under ``name`` atomically,
        so a crash never leaves half a file."""
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

    def write_sealed(self, name: str, pieces: Sequence[bytes]) -> None:
        """Store a cache file sealed with the folder's secret (``read_sealed`` reads it)."""
        self.write(name, self.sealer.seal(pieces))

    def read_sealed(self, name: str) -> bytes | None:
        """The payload of a sealed cache file; None when missing or not sealed here."""
        try:
            raw = self.path(name).read_bytes()
        except OSError:
            return None
        return self.sealer.open(raw)

    def locked(self, lock_name: str) -> AbstractContextManager[None]:
        """An exclusive lock on the file ``lock_name`` of the folder (``lock.exclusive``)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        return exclusive(self.path(lock_name))
