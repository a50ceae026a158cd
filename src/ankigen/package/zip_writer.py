"""The ``.apkg`` zip, written from entries deflated beforehand.

``zipfile`` deflates every entry it writes and has no public way to take
bytes already deflated, and deflating the same 2,500 images on every rebuild
cost more than the rest of packaging (``media_pack``). So the deck's zip is
written here, from the format's public specification (PKWARE's APPNOTE.TXT,
sections 4.3 and 4.5.3): per entry a local header and its deflated bytes,
then the central directory and the end record, with ZIP64 records where the
sizes, offsets or entry count need them.

The bytes are those ``zipfile.ZipFile.writestr`` writes for a ``ZipInfo``
with the same name, date, ``ZIP_DEFLATED`` and the Unix permissions 0644
(``tests/package/test_zip_writer.py`` compares the two, and pins the bytes
of a small archive, so a deck's bytes depend on neither the Python version
nor its ``zipfile``): the same zlib settings (raw deflate, the default
level unless a ``level`` is given, as ``writestr``'s ``compresslevel``),
version fields, flags, ZIP64 rules and record order.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

#: Sizes and offsets past this are written as ZIP64 fields (``zipfile``'s limit).
ZIP64_LIMIT = (1 << 31) - 1
#: More entries than this need the ZIP64 end records.
ENTRY_COUNT_LIMIT = (1 << 16) - 1

_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_CENTRAL_HEADER = struct.Struct("<4s4B4HL2L5H2L")
_END_RECORD = struct.Struct("<4s4H2LH")
_ZIP64_END_RECORD = struct.Struct("<4sQ2H2L4Q")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_LOCAL_EXTRA = struct.Struct("<HHQQ")

_DEFLATED = 8  # compression method 8: deflate
_VERSION = 20  # version needed to extract: 2.0, deflate
_ZIP64_VERSION = 45  # 4.5: ZIP64 records
_UNIX = 3  # "version made by" host: the external attributes hold Unix permissions
_PERMISSIONS = 0o644 << 16  # -rw-r--r--, the same for every entry
_UTF8_NAME = 0x800  # general purpose flag bit 11: the name is UTF-8
_UNSET = 0xFFFFFFFF  # a 32-bit field whose value is in the ZIP64 extra field


@dataclass(frozen=True)
class Deflated:
    """One entry's deflated bytes, and what its headers need to know of them."""

    data: bytes
    crc: int
    size: int


def deflate(raw: bytes) -> Deflated:
    """Deflate as ``zipfile`` does for ``ZIP_DEFLATED`` at the default level."""
    compressor = _compressor()
    data = compressor.compress(raw) + compressor.flush()
    return Deflated(data, zlib.crc32(raw), len(raw))


def deflate_pieces(pieces: Iterable[bytes], level: int = zlib.Z_DEFAULT_COMPRESSION) -> Deflated:
    """``deflate`` of the pieces joined, without joining them (zlib's output does not
    depend on how its input is cut; each ``compress`` call runs without the GIL), at
    ``level`` (``zipfile``'s ``compresslevel``)."""
    compressor = _compressor(level)
    out: list[bytes] = []
    crc = size = 0
    for piece in pieces:
        crc, size = zlib.crc32(piece, crc), size + len(piece)
        out.append(compressor.compress(piece))
    out.append(compressor.flush())
    return Deflated(b"".join(out), crc, size)


def _compressor(level: int = zlib.Z_DEFAULT_COMPRESSION) -> Any:
    """A compressor with ``zipfile``'s settings: raw deflate, the default level (or
    ``level``, as ``zipfile`` with that ``compresslevel``)."""
    return zlib.compressobj(level, zlib.DEFLATED, -15)


@dataclass(frozen=True)
class ZipEntry:
    """One written entry, as the central directory lists it."""

    name: str
    crc: int
    compressed: int
    size: int
    #: Where its local header starts in the zip.
    offset: int
    #: Its local header carries ZIP64 sizes (decided before its bytes are written).
    zip64: bool


class ZipWriter:
    """Writes a zip of deflated entries, all with one date, into a binary file.

    ``add`` and ``add_stream`` write an entry where the file's last one ends;
    ``finish`` writes the central directory and the end record. A writer whose
    file starts a scratch file can be appended to another with ``extend``.
    """

    def __init__(self, out: BinaryIO, date: tuple[int, ...]) -> None:
        if not 1980 <= date[0] <= 2107:
            raise ValueError(f"a zip date is in 1980-2107, not {date[0]}")
        self._out = out
        #: The date of every entry (year, month, day, hour, minute, second).
        self.date = tuple(date[:6])
        year, month, day, hour, minute, second = date[:6]
        self._time = hour << 11 | minute << 5 | second // 2
        self._date = (year - 1980) << 9 | month << 5 | day
        self._start = out.tell()
        self._end = self._start
        self.entries: list[ZipEntry] = []

    def add(self, name: str, deflated: Deflated) -> None:
        """Write one entry from its deflated bytes."""
        entry = ZipEntry(
            name,
            deflated.crc,
            len(deflated.data),
            deflated.size,
            self._end,
            _needs_zip64_header(deflated.size),
        )
        self._out.write(self._local_header(entry))
        self._out.write(deflated.data)
        self._written(entry)

    def add_stream(
        self,
        name: str,
        pieces: Iterable[bytes],
        size: int,
        level: int = zlib.Z_DEFAULT_COMPRESSION,
    ) -> None:
        """Write one entry deflated here (at ``level``) from ``pieces`` (``size`` bytes in
        all), never held whole; its local header is written again once its CRC and
        sizes are known, so the file must be seekable."""
        zip64 = _needs_zip64_header(size)
        header = self._local_header(ZipEntry(name, 0, 0, 0, self._end, zip64))
        self._out.write(header)
        compressor = _compressor(level)
        crc = compressed = written = 0
        for piece in pieces:
            crc, written = zlib.crc32(piece, crc), written + len(piece)
            data = compressor.compress(piece)
            compressed += len(data)
            self._out.write(data)
        data = compressor.flush()
        compressed += len(data)
        self._out.write(data)
        if written != size:
            raise ValueError(f"{name}: {written} bytes read, {size} expected")
        entry = ZipEntry(name, crc, compressed, size, self._end, zip64)
        end = self._out.tell()
        self._out.seek(entry.offset)
        self._out.write(self._local_header(entry))
        self._out.seek(end)
        self._written(entry)

    def extend(self, part: ZipWriter) -> None:
        """Copy the entries ``part`` wrote (local headers and bytes: they hold no
        offset) after this zip's, reading its file from the start."""
        if part._start != 0:
            raise ValueError("only a writer that began its file can be appended")
        part._out.seek(0)
        self._out.seek(self._end)
        base = self._end
        copied = 0
        while copied < part._end:
            chunk = part._out.read(min(1 << 20, part._end - copied))
            if not chunk:
                raise ValueError("the part's file is shorter than its entries")
            self._out.write(chunk)
            copied += len(chunk)
        for entry in part.entries:
            self.entries.append(replace(entry, offset=entry.offset + base))
        self._end += part._end

    def finish(self) -> None:
        """Write the central directory and the end record (ZIP64 ones when needed)."""
        self._out.seek(self._end)
        for entry in self.entries:
            self._out.write(self._central_header(entry))
        directory_end = self._out.tell()
        count, size, offset = len(self.entries), directory_end - self._end, self._end
        if count > ENTRY_COUNT_LIMIT or offset > ZIP64_LIMIT or size > ZIP64_LIMIT:
            version = _ZIP64_VERSION
            record = (44, version, version, 0, 0, count, count, size, offset)
            self._out.write(_ZIP64_END_RECORD.pack(b"PK\x06\x06", *record))
            self._out.write(_ZIP64_LOCATOR.pack(b"PK\x06\x07", 0, directory_end, 1))
            count, size, offset = min(count, 0xFFFF), min(size, _UNSET), min(offset, _UNSET)
        self._out.write(_END_RECORD.pack(b"PK\x05\x06", 0, 0, count, count, size, offset, 0))
        self._out.flush()

    def _written(self, entry: ZipEntry) -> None:
        self.entries.append(entry)
        self._end = self._out.tell()

    def _local_header(self, entry: ZipEntry) -> bytes:
        name, flags = _encoded(entry.name)
        compressed, size, extra = entry.compressed, entry.size, b""
        if entry.zip64:
            extra = _ZIP64_LOCAL_EXTRA.pack(1, 16, size, compressed)
            compressed = size = _UNSET
        version = _ZIP64_VERSION if entry.zip64 else _VERSION
        fields = (flags, _DEFLATED, self._time, self._date, entry.crc, compressed, size)
        header = _LOCAL_HEADER.pack(b"PK\x03\x04", version, 0, *fields, len(name), len(extra))
        return header + name + extra

    def _central_header(self, entry: ZipEntry) -> bytes:
        name, flags = _encoded(entry.name)
        compressed, size, offset = entry.compressed, entry.size, entry.offset
        large: list[int] = []
        if size > ZIP64_LIMIT or compressed > ZIP64_LIMIT:
            large += [size, compressed]
            compressed = size = _UNSET
        if offset > ZIP64_LIMIT:
            large.append(offset)
            offset = _UNSET
        extra = struct.pack(f"<HH{len(large)}Q", 1, 8 * len(large), *large) if large else b""
        version = _ZIP64_VERSION if entry.zip64 or large else _VERSION
        header = _CENTRAL_HEADER.pack(
            b"PK\x01\x02",
            version,
            _UNIX,
            version,
            0,
            flags,
            _DEFLATED,
            self._time,
            self._date,
            entry.crc,
            compressed,
            size,
            len(name),
            len(extra),
            0,  # no comment
            0,  # disk number
            0,  # internal attributes
            _PERMISSIONS,
            offset,
        )
        return header + name + extra


def _needs_zip64_header(size: int) -> bool:
    """Whether an entry's local header gets ZIP64 sizes: ``zipfile``'s rule, made before
    deflating (deflated bytes can be a little longer than the raw ones)."""
    return size * 1.05 > ZIP64_LIMIT


def _encoded(name: str) -> tuple[bytes, int]:
    """A name as stored (ASCII, else UTF-8 with its flag) and the entry's flags."""
    try:
        return name.encode("ascii"), 0
    except UnicodeEncodeError:
        return name.encode("utf-8"), _UTF8_NAME
