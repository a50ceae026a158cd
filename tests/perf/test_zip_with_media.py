"""A deck zip with media (its collection deflated on another thread while the media
entries are written apart, then appended) has the bytes of one written entry by entry."""

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


def _reference(collection: bytes, media: list[MediaFile]) -> bytes:
    """The same zip, every entry written by ``writestr`` in order (no pack, no thread)."""
    date = time.gmtime(STAMP)[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(package._entry("collection.anki2", date), collection)
        names = {str(index): file.name for index, file in enumerate(media)}
        archive.writestr(package._entry("media", date), json.dumps(names))
        for index, file in enumerate(media):
            archive.writestr(package._entry(str(index), date), file.read())
    return buffer.getvalue()


def _written(tmp_path: Path, media: list[MediaFile], cache: MediaCache) -> bytes:
    target = tmp_path / "deck.apkg"
    with MediaPack(cache, "deck") as pack:
        package._write_zip(tmp_path / "collection", media, target, STAMP, pack)
        pack.save()
    return target.read_bytes()


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
    assert _written(tmp_path, media, cache) == expected
    assert _written(tmp_path, media, cache) == expected  # media from the pack this time
    with zipfile.ZipFile(tmp_path / "deck.apkg") as archive:
        assert archive.testzip() is None
        assert archive.read("collection.anki2") == rows
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # the media scratch file is gone
