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
from pathlib import Path

from ankigen.cache.seal import Sealer
from ankigen.cache.store import Store

__all__ = ["CacheFolder"]


class CacheFolder:
    """One cache folder (``OUT/.cache``); its secret is made on first use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._sealer: Sealer | None = None
        self._store: Store | None = None

    @property
    def sealer(self) -> Sealer:
        """The folder's sealer (its secret made on first use)."""
        if self._sealer is None:
            self._sealer = Sealer.for_folder(self.folder)
        return self._sealer

    @property
    def store(self) -> Store:
        """The folder's store of every cache's records (``cache.store``), opened on first use."""
        if self._store is None:
            self._store = Store(self.folder, self.sealer)
        return self._store

    def close(self) -> None:
        """Close the folder's store, if it was opened (it opens again if used)."""
        if self._store is not None:
            self._store.close()

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
