"""``ZipWriter`` writes the bytes ``zipfile`` writes, and the same bytes on every Python.

The deck's zip is written by ``ankigen.package.zip_writer`` (``zipfile`` cannot
take bytes deflated beforehand). Each test writes an archive both ways: with
``ZipWriter`` and with ``zipfile.ZipFile.writestr`` (a ``ZipInfo`` with the
deck's date, ``ZIP_DEFLATED``, Unix permissions 0644), and compares the bytes;
checked against the ``zipfile`` of CPython 3.11, 3.12 and 3.13. One archive's
bytes are pinned, so neither the writer nor a future ``zipfile`` changes a
deck's bytes unseen.
"""

from __future__ import annotations

import hashlib
import io
import os
import random
import zipfile
import zlib

import pytest

from ankigen.package import zip_writer
from ankigen.package.zip_writer import Deflated, ZipWriter, deflate

DATE = (2023, 11, 14, 22, 13, 21)  # an odd second: zip times count in 2 s steps
PAYLOADS = {
    "collection.anki2": b"row " * 5000 + os.urandom(300),
    "media": b'{"0": "a.svg", "1": "\xc3\xa9t\xc3\xa9.png"}',
    "0": b"",
    "1": b"x",
    "2": random.Random(2).randbytes(70_000),  # deflates to more than it was
    "\u00e9t\u00e9.svg": b"<svg/>" * 40,  # a name that is not ASCII: UTF-8, with its flag
}


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3  # Unix, whatever the host (zipfile says 0 on Windows)
    return info


def _reference(payloads: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, payload in payloads.items():
            archive.writestr(_info(name), payload)
    return buffer.getvalue()


def _written(payloads: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    archive = ZipWriter(buffer, DATE)
    for name, payload in payloads.items():
        archive.add(name, deflate(payload))
    archive.finish()
    return buffer.getvalue()


def test_entries_are_the_bytes_zipfile_writes() -> None:
    written = _written(PAYLOADS)
    assert written == _reference(PAYLOADS)
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        assert archive.testzip() is None
        assert {info.filename: archive.read(info) for info in archive.infolist()} == PAYLOADS
        assert {info.date_time for info in archive.infolist()} == {(*DATE[:5], 20)}


def test_an_empty_zip_is_the_bytes_zipfile_writes() -> None:
    assert _written({}) == _reference({}) == b"PK\x05\x06" + bytes(18)


def test_the_bytes_of_a_small_zip_are_pinned() -> None:
    # Deflate streams made by hand (a stored block each), so the pin holds whatever
    # zlib the machine has: it pins the writer's headers and records only.
    entries = {
        "collection.anki2": Deflated(b"\x01\x02\x00\xfd\xffhi", zlib.crc32(b"hi"), 2),
        "media": Deflated(b"\x01\x02\x00\xfd\xff{}", zlib.crc32(b"{}"), 2),
        "0": Deflated(b"\x03\x00", 0, 0),
    }
    buffer = io.BytesIO()
    archive = ZipWriter(buffer, DATE)
    for name, deflated in entries.items():
        archive.add(name, deflated)
    archive.finish()
    with zipfile.ZipFile(buffer) as written:
        assert [written.read(name) for name in entries] == [b"hi", b"{}", b""]
    digest = hashlib.sha256(buffer.getvalue()).hexdigest()
    assert digest == "59c7f432a665a0f903219ffaaa791cfe756655ccaf8d90e6640ebc2007a41e55"


def test_a_streamed_entry_is_the_entry_written_whole() -> None:
    payload = b"".join(os.urandom(64) + b"row " * 300 for _ in range(3000))  # ~3.8 MB
    streamed = io.BytesIO()
    archive = ZipWriter(streamed, DATE)
    pieces = (payload[start : start + (1 << 20)] for start in range(0, len(payload), 1 << 20))
    archive.add_stream("collection.anki2", pieces, len(payload))
    archive.add("media", deflate(b"{}"))
    archive.finish()
    payloads = {"collection.anki2": payload, "media": b"{}"}
    assert streamed.getvalue() == _written(payloads) == _reference(payloads)


def test_a_stream_of_another_size_is_refused() -> None:
    archive = ZipWriter(io.BytesIO(), DATE)
    with pytest.raises(ValueError, match="3 bytes read, 4 expected"):
        archive.add_stream("c", iter([b"abc"]), 4)


def test_a_part_written_apart_and_appended_is_one_zip() -> None:
    names = list(PAYLOADS)
    whole, scratch = io.BytesIO(), io.BytesIO()
    archive, part = ZipWriter(whole, DATE), ZipWriter(scratch, DATE)
    for name in names[1:]:
        part.add(name, deflate(PAYLOADS[name]))
    archive.add(names[0], deflate(PAYLOADS[names[0]]))
    archive.extend(part)
    archive.finish()
    assert whole.getvalue() == _reference(PAYLOADS)


def test_only_a_part_that_began_its_file_is_appended() -> None:
    scratch = io.BytesIO(b"junk")
    scratch.seek(4)
    part = ZipWriter(scratch, DATE)
    with pytest.raises(ValueError, match="began its file"):
        ZipWriter(io.BytesIO(), DATE).extend(part)


def test_more_entries_than_the_end_record_counts_get_zip64_end_records() -> None:
    payloads = {str(index): b"" for index in range(zip_writer.ENTRY_COUNT_LIMIT + 1)}
    written = _written(payloads)
    assert b"PK\x06\x06" in written[-200:]
    assert written == _reference(payloads)


def test_large_sizes_and_offsets_get_zip64_fields_as_zipfile_writes_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both writers' limits scaled down (public module constants, read at each call), so
    # that a small archive needs every ZIP64 field: local sizes, central sizes and
    # offsets, the end records.
    limit = 5000
    monkeypatch.setattr(zipfile, "ZIP64_LIMIT", limit)
    monkeypatch.setattr(zip_writer, "ZIP64_LIMIT", limit)
    payloads = {
        "small": b"a" * 100,  # below every limit, until its offset is not
        "local": b"b" * 4900,  # 1.05 x its size is over: ZIP64 local header only
        "big": os.urandom(6000),  # sizes over the limit
        "after": b"c" * 10,  # its offset is over the limit
    }
    written = _written(payloads)
    assert written == _reference(payloads)
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        assert archive.testzip() is None
        assert {info.filename: archive.read(info) for info in archive.infolist()} == payloads


@pytest.mark.parametrize("year", [1979, 2108])
def test_a_date_zip_cannot_hold_is_refused(year: int) -> None:
    with pytest.raises(ValueError, match="1980-2107"):
        ZipWriter(io.BytesIO(), (year, *DATE[1:]))
