"""Frozen sections of earlier builds, so an edit re-parses only the sections it touched.

Each section's result (its items, formulas and diagnostics) is stored under a
hash of everything that shapes it: the section's text, the front matter, the
deck key, the file's display path, and the code that parses (every file of
the ``ankigen`` package and the versions of the libraries that shape output,
see ``ankigen.cache.recipe``). Lines are stored counted from the
section's first line, so a section that only moves (a line added above it)
is still a hit. Any other change is a miss, and a miss is parsed as usual; a
damaged or foreign cache file is ignored.

Each record is ``marshal`` data of builtin values only (``parse.section_codec``):
loading it builds no object of any class. Each carries a seal (an HMAC of its
key and value under the build folder's secret, ``ankigen.cache.seal``): a
record written by anyone else is a miss. A field added to ``model.Item`` and
friends that the codec does not spell out turns the cache off, never wrong.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import BinaryIO

from ankigen.cache import MAC_SIZE, Sealer, build_key
from ankigen.parse.section_codec import KNOWN_FIELDS, SectionResult, decode, encode

__all__ = ["SectionCache", "SectionResult", "read_record", "record", "section_key"]

_FORMAT = 5


class SectionCache:
    """Section results of one deck's last parse, and this parse's for the next.

    The last parse's file is mapped, not read: a record is decoded only when
    its section is asked for, so memory holds one section's values at a time
    (not the whole deck twice). This parse's records are written one by one as
    they come (a reused one is copied as bytes) to a temporary file that
    ``save`` puts in place; use it as a context manager so an unsaved one
    leaves nothing behind.
    """

    def __init__(self, file: Path | None, sealer: Sealer | None = None) -> None:
        # A model class whose fields this codec does not know turns the cache off.
        self._file = file if KNOWN_FIELDS else None
        if sealer is None and self._file is not None:
            sealer = Sealer.for_folder(self._file.parent)
        self._sealer = sealer
        self._old = _Records.open(self._file, sealer)
        self._out: BinaryIO | None = None
        self._broken = self._file is None
        self.hits = 0

    def __enter__(self) -> SectionCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._discard()
        self._old.close()

    def get(self, key: str, start: int) -> SectionResult | None:
        """The stored result for ``key``, its lines moved to a section starting at ``start``."""
        stored = self._old.pop(key)
        if stored is None:
            return None
        try:
            result = read_record(stored, start)
        except (TypeError, ValueError, EOFError):
            return None
        self.hits += 1
        self._write(key, stored)
        return result

    def put(self, key: str, result: SectionResult, start: int) -> None:
        """Remember a freshly parsed section that starts at line ``start`` (0-based)."""
        if not self._broken:
            self._write(key, record(result, start))

    def holds(self, key: str) -> bool:
        """Whether the last parse stored ``key`` (``get`` may still refuse a damaged record)."""
        return self._old.holds(key)

    def save(self) -> None:
        """Put this parse's sections (only those) in place of the last ones."""
        self._old.close()
        if self._out is None or self._file is None:
            return
        self._out.close()
        self._out = None
        self._temp().replace(self._file)

    def _write(self, key: str, value: bytes) -> None:
        if self._broken or self._file is None:
            return
        try:
            if self._out is None:
                self._file.parent.mkdir(parents=True, exist_ok=True)
                self._out = self._temp().open("wb")
                self._out.write(_MAGIC)
            assert self._sealer is not None  # made with the file
            name = bytes.fromhex(key)
            self._out.write(name + len(value).to_bytes(_LENGTH, "big"))
            self._out.write(self._sealer.mac(name, value))
            self._out.write(value)
        except (OSError, ValueError):
            self._discard()  # no cache this time; the build goes on
            self._broken = True

    def _discard(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
            self._temp().unlink(missing_ok=True)

    def _temp(self) -> Path:
        assert self._file is not None
        # One name per process: two builds of the same deck never write one file.
        return self._file.with_name(f"{self._file.name}.{os.getpid()}.tmp")


def record(result: SectionResult, start: int) -> bytes:
    """``result`` as the bytes of one record, its lines counted from ``start``."""
    return marshal.dumps(encode(result, start))


def read_record(stored: bytes, start: int) -> SectionResult:
    """The inverse of ``record``; bytes of another shape raise TypeError, ValueError or
    EOFError."""
    return decode(marshal.loads(stored), start)


def section_key(*parts: str) -> str:
    """The cache key of a section: its text and context, and the parser's code."""
    digest = build_key("sections", str(_FORMAT), *parts)
    return str(digest.hexdigest())


#: The file: this magic line, then records of a 32-byte key (a sha256 digest), an
#: 8-byte big-endian length, the record's seal and that many bytes of marshal data.
_MAGIC = f"ankigen-sections-{_FORMAT}\n".encode()
_KEY = 32
_LENGTH = 8


class _Records:
    """The last parse's records: where each one is in the file's bytes, by key."""

    def __init__(
        self,
        data: bytes | None,
        where: dict[str, tuple[int, int]],
        sealer: Sealer | None = None,
    ) -> None:
        self._data = data
        self._where = where
        self._sealer = sealer

    @classmethod
    def open(cls, file: Path | None, sealer: Sealer | None) -> _Records:
        """The records of ``file``; none when it is missing, foreign or damaged."""
        if file is None or sealer is None:
            return cls(None, {})
        try:
            data = file.read_bytes()
        except OSError:
            return cls(None, {})  # missing or unreadable
        where = _index(data)
        if where is None:
            return cls(None, {})
        return cls(data, where, sealer)

    def holds(self, key: str) -> bool:
        """Whether a record is stored under ``key`` (and not given out yet)."""
        return key in self._where

    def pop(self, key: str) -> bytes | None:
        """The bytes stored under ``key`` (each record is given out once); None when the
        record's seal is not this folder's."""
        place = self._where.pop(key, None)
        if place is None or self._data is None or self._sealer is None:
            return None
        start, end = place
        seal, value = self._data[start - MAC_SIZE : start], self._data[start:end]
        return value if self._sealer.matches(seal, bytes.fromhex(key), value) else None

    def close(self) -> None:
        """Let the file's bytes go (before it is replaced)."""
        self._data = None
        self._where = {}


def _index(data: bytes) -> dict[str, tuple[int, int]] | None:
    """Where each record's value is; None for a file of another format or a torn one."""
    if data[: len(_MAGIC)] != _MAGIC:
        return None
    where: dict[str, tuple[int, int]] = {}
    position = len(_MAGIC)
    while position < len(data):
        head = data[position : position + _KEY + _LENGTH]
        if len(head) < _KEY + _LENGTH:
            return None
        start = position + _KEY + _LENGTH + MAC_SIZE
        end = start + int.from_bytes(head[_KEY:], "big")
        if end > len(data):
            return None
        where[head[:_KEY].hex()] = (start, end)
        position = end
    return where
