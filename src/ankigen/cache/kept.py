"""The values a memo keeps for the next build: past a budget, they wait in a scratch file.

A cold build of a 100,000-item deck keeps 66 MB of section records from its
parse and 45 MB of note records from its render until each memo's row is
written, beside the deck they were made from. Past ``held_bytes``, values are
written to an unnamed scratch file in the cache folder as they come and read
back, in order, when the row is written (``memo.store_values``): the same row,
with no more of them in memory than the budget. The file has no name from the
start: it goes when the memo does, whatever ends the build. Where no scratch file can be
made (or written), they are held in memory as before.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import BinaryIO

__all__ = ["Kept"]

#: Where a value waits in the scratch file: its offset and size, as one number
#: (``offset << _SIZE_BITS | size``: a 100,000-item deck's notes are 100,000 values,
#: and a tuple of two numbers each held 5 MB more until the memo was saved).
_Place = int
_SIZE_BITS = 40


class Kept(MutableMapping[bytes, bytes]):
    """Values by key, in the order first kept: the first ``held_bytes`` of them in memory,
    later ones in a scratch file in ``folder`` (None: all in memory)."""

    def __init__(self, folder: Path | None, held_bytes: int) -> None:
        self._folder, self._room = folder, held_bytes
        self._values: dict[bytes, bytes | _Place] = {}
        self._scratch: BinaryIO | None = None
        #: The scratch file's end, and whether a value read back moved the position from it.
        self._end, self._moved = 0, False
        #: Some value could not be written: the memo writes no row (made again next time).
        self.broken = False

    def __getitem__(self, key: bytes) -> bytes:
        value = self._values[key]
        if isinstance(value, bytes):
            return value
        offset, size = value >> _SIZE_BITS, value & ((1 << _SIZE_BITS) - 1)
        assert self._scratch is not None  # a value was written there
        # An OSError here (writing what was buffered) is the caller's: no row is written.
        self._scratch.seek(offset)
        self._moved = True
        return self._scratch.read(size)

    def __setitem__(self, key: bytes, value: bytes) -> None:
        self._room -= len(value)
        self._values[key] = value if self._room >= 0 else self._written(value)

    def size(self) -> int:
        """The bytes of every value, without reading those in the scratch file."""
        mask = (1 << _SIZE_BITS) - 1
        return sum(len(v) if isinstance(v, bytes) else v & mask for v in self._values.values())

    def __contains__(self, key: object) -> bool:
        return key in self._values  # without reading the value

    def __delitem__(self, key: bytes) -> None:
        del self._values[key]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def _written(self, value: bytes) -> bytes | _Place:
        """``value``'s place at the end of the scratch file; itself when it cannot go there."""
        scratch = self._scratch_file()
        if scratch is None or len(value) >> _SIZE_BITS:
            return value
        try:
            if self._moved:  # a seek writes out what is buffered: only after a read
                scratch.seek(self._end)
                self._moved = False
            scratch.write(value)  # buffered: written out at the latest when one is read back
        except OSError:  # a full disk, say: the values written may be lost
            self.broken = True
            self._folder = None  # the next ones are held in memory
            return value
        offset, self._end = self._end, self._end + len(value)
        return offset << _SIZE_BITS | len(value)

    def _scratch_file(self) -> BinaryIO | None:
        """The scratch file, made on first use; None when it cannot be made."""
        if self._scratch is None and self._folder is not None:
            with contextlib.suppress(OSError):
                # Open as long as the memo lives (no name: it goes with its last descriptor).
                self._scratch = tempfile.TemporaryFile(dir=self._folder)  # noqa: SIM115
            if self._scratch is None:
                self._folder = None  # not tried again
        return self._scratch if self._folder is not None else None
