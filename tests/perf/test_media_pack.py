"""Media deflated once are reused while unchanged; a damaged or forged pack is ignored.

(That the writer gives ``writestr``'s bytes: ``tests/package/test_zip_writer.py``.)
"""

from __future__ import annotations

import marshal
import zlib
from pathlib import Path

import pytest

from ankigen.cache import store_values, stored_values
from ankigen.model import MediaFile
from ankigen.package.media_pack import MediaPack
from ankigen.package.zip_writer import deflate
from ankigen.render import MediaCache


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
    (key,) = stored_values(cache.store, "pack", "deck")
    for junk in (b"", b"\x05\x00\x00\x00{bad", b"\xff\xff\xff\xff", marshal.dumps((1, 2))):
        store_values(cache.store, "pack", "deck", {key: junk})
        with MediaPack(cache, "deck") as pack:
            assert pack.deflated(file) == deflate(b"<svg/>")
            assert pack.reused == 0


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
