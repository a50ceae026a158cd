"""One cache folder's files: atomic writes, sealed files, locks, and the folder's sealer.

``MediaCache`` and its ``MediaIndex`` both use one ``CacheFolder``; neither holds
the other, so a build makes no reference cycle (``ankigen.gcpause``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from ankigen.cache import Sealer

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; builds there share no cache at once
    fcntl = None  # type: ignore[assignment]


class CacheFolder:
    """The files of one cache folder."""

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

    @contextlib.contextmanager
    def locked(self, lock_name: str) -> Iterator[None]:
        """Hold an exclusive lock on ``lock_name`` in the cache folder."""
        with open(self.path(lock_name), "a+b") as handle:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)
            yield  # closing the file releases the lock
