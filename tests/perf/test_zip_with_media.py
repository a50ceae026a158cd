"""A deck zip with media (its collection deflated on another thread while the media
entries are written apart, then appended) has the bytes of one written entry by entry
by ``zipfile``, without a cache, with a cold one and with media from the pack."""

from __future__ import annotations

import io
import json
import os
import random
import time
import zipfile
from pathlib import Path

import pytest

from ankigen import package
from ankigen.model import MediaFile
from ankigen.package import COLLECTION_LEVEL
from ankigen.package.media_pack import MediaPack
from ankigen.render import MediaCache

STAMP = 1_700_000_000.0


def _collection(path: Path, size: int) -> bytes:
    """Rows that deflate like a collection's: text with some noise, over several read pieces."""
    r = random.Random(size)
    words = [b"note", b"card", b"\x1f", b"<b>", b"gradient", b"all-reduce", b"0.001"]
    data = b" ".join(r.choice(words) + os.urandom(r.randint(0, 3)) for _ in range(size // 6))
    path.write_bytes(data)
    return data


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=time.gmtime(STAMP)[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3
    return info


def _reference(collection: bytes, media: list[MediaFile]) -> bytes:
    """The same zip, every entry written by ``writestr`` in order (no pack, no thread)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(_entry("collection.anki2"), collection, compresslevel=COLLECTION_LEVEL)
        names = {str(index): file.name for index, file in enumerate(media)}
        archive.writestr(_entry("media"), json.dumps(names))
        for index, file in enumerate(media):
            archive.writestr(_entry(str(index)), file.read())
    return buffer.getvalue()


def _written(tmp_path: Path, media: list[MediaFile], cache: MediaCache | None) -> tuple[bytes, int]:
    """The deck's zip bytes, and how many media came from the pack."""
    target = tmp_path / "deck.apkg"
    with MediaPack(cache, "deck") as pack:
        entries = pack.deflated_all(media)
        package._write_zip(tmp_path / "collection", media, entries, target, STAMP)
        pack.save()
    return target.read_bytes(), pack.reused


@pytest.mark.parametrize("images", [0, 1, 40])
def test_the_zip_equals_one_written_entry_by_entry(tmp_path: Path, images: int) -> None:
    # ~9 MB: the collection is read and deflated in more than one piece
    rows = _collection(tmp_path / "collection", 9_000_000 if images == 40 else 300_000)
    cache = MediaCache(tmp_path / "cache")
    media = [
        cache.put(f"m{i}.svg", b"<svg>" + os.urandom(i * 50) + b"<rect/>" * i + b"</svg>")
        for i in range(images)
    ]
    expected = _reference(rows, media)
    assert _written(tmp_path, media, None) == (expected, 0)  # no cache: all deflated now
    assert _written(tmp_path, media, cache) == (expected, 0)  # cold: the pack is filled
    assert _written(tmp_path, media, cache) == (expected, images)  # warm: all from the pack
    with zipfile.ZipFile(tmp_path / "deck.apkg") as archive:
        assert archive.testzip() is None
        assert archive.read("collection.anki2") == rows
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # the media scratch file is gone
