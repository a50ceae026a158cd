"""An advisory lock on a file of the cache folder, so builds into one folder take turns."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; builds there share no cache at once
    fcntl = None  # type: ignore[assignment]

__all__ = ["exclusive"]


@contextlib.contextmanager
def exclusive(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``lock`` (made if missing) until the block ends."""
    with open(lock, "a+b") as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield  # closing the file releases the lock
