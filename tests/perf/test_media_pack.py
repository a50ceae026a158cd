"""Media deflated once give the zip bytes ``writestr`` gives; a damaged pack is ignored."""

from __future__ import annotations

import io
import marshal
import os
import zipfile
import zlib
from pathlib import Path

import pytest

from ankigen.model import MediaFile
from ankigen.package.media_pack import MediaPack, deflate, write_deflated
from ankigen.render import MediaCache

DATE = (2023, 11, 14, 22, 13, 20)


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=DATE)
    info.external_attr = 0o644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _zip(payloads: list[bytes], *, predeflated: bool) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(_entry("first"), b"collection")
        for index, payload in enumerate(payloads):
            if predeflated:
                write_deflated(archive, _entry(str(index)), deflate(payload))
            else:
                archive.writestr(_entry(str(index)), payload)
    return buffer.getvalue()


def test_predeflated_entries_are_byte_identical() -> None:
    payloads = [b"", b"x", b"<svg>" * 2000, os.urandom(5000)]
    assert _zip(payloads, predeflated=True) == _zip(payloads, predeflated=False)
    with zipfile.ZipFile(io.BytesIO(_zip(payloads, predeflated=True))) as archive:
        assert archive.testzip() is None
        assert [archive.read(str(i)) for i in range(len(payloads))] == payloads


def test_unchanged_media_come_from_the_pack(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path / "cache")
    media = [cache.put(f"m{i}.svg", f"<svg>{i}</svg>".encode() * 50) for i in range(3)]
    with MediaPack(cache, "deck") as pack:
        first = [pack.deflated(file) for file in media]
        pack.save()
    with MediaPack(cache, "deck") as pack:
        again = [pack.deflated(file) for file in media]
        assert pack.reused == 3
    assert again == first
    cache.put("m1.svg", b"<svg>changed, and longer</svg>")
    with MediaPack(cache, "deck") as pack:
        changed = pack.deflated(MediaFile("m1.svg", cache.path("m1.svg")))
        assert pack.reused == 0
    assert changed == deflate(b"<svg>changed, and longer</svg>")


def test_held_media_come_from_the_pack_while_their_bytes_are_the_same(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path / "cache")
    held = [cache.hold(f"m{i}.svg", f"<svg>{i}</svg>".encode() * 50) for i in range(3)]
    assert all(file.path is None for file in held)  # in memory: no cache file each
    with MediaPack(cache, "deck") as pack:
        first = [pack.deflated(file) for file in held]
        pack.save()
    assert first == [deflate(file.read()) for file in held]
    with MediaPack(cache, "deck") as pack:
        assert [pack.deflated(file) for file in held] == first
        assert pack.reused == 3
    # Other bytes under a name the pack knows (of the same length): deflated afresh.
    other = MediaFile("m1.svg", None, b"<svg>9</svg>" * 50)
    on_disk = cache.put("m2.svg", held[2].read())  # the same bytes, now a file: not reused
    with MediaPack(cache, "deck") as pack:
        assert pack.deflated(other) == deflate(other.read())
        assert pack.deflated(on_disk) == first[2]
        assert pack.reused == 0


def test_a_damaged_entry_is_ignored(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path / "cache")
    file = cache.put("m.svg", b"<svg/>")
    with MediaPack(cache, "deck") as pack:
        pack.deflated(file)
        pack.save()
    (key,) = cache.store.keys("pack", "deck")
    for junk in (b"", b"\x05\x00\x00\x00{bad", b"\xff\xff\xff\xff", marshal.dumps((1, 2))):
        cache.store.put("pack", "deck", key, junk)
        with MediaPack(cache, "deck") as pack:
            assert pack.deflated(file) == deflate(b"<svg/>")
            assert pack.reused == 0


def test_a_streamed_entry_equals_writestr() -> None:
    payload = b"".join(os.urandom(64) + b"row " * 300 for _ in range(3000))  # ~3.8 MB
    streamed, whole = io.BytesIO(), io.BytesIO()
    archive = zipfile.ZipFile(streamed, "w", compression=zipfile.ZIP_DEFLATED)
    with archive, archive.open(_entry("c"), "w") as target:
        for start in range(0, len(payload), 1 << 20):
            target.write(payload[start : start + (1 << 20)])
    with zipfile.ZipFile(whole, "w", compression=zipfile.ZIP_DEFLATED) as other:
        other.writestr(_entry("c"), payload)
    assert streamed.getvalue() == whole.getvalue()


def test_held_bytes_are_reused_only_when_the_entry_inflates_to_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every CRC matches: bytes of the same length under a name the pack knows.
    monkeypatch.setattr(zlib, "crc32", lambda data: 7)
    cache = MediaCache(tmp_path / "cache")
    judged = MediaFile("m.svg", None, b"<svg>the bytes judged</svg>")
    with MediaPack(cache, "deck") as pack:
        pack.deflated(judged)
        pack.save()
    forged = MediaFile("m.svg", None, b"<svg>the bytes JUDGED</svg>")
    with MediaPack(cache, "deck") as pack:
        assert pack.deflated(forged).data == deflate(forged.read()).data
        assert pack.reused == 0
    with MediaPack(cache, "deck") as pack:
        assert pack.deflated(judged).data == deflate(judged.read()).data
        assert pack.reused == 1
