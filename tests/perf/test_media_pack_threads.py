"""Media deflated on two threads are the bytes one thread deflates, in the same order.

``MediaPack.deflated_all`` deflates the fresh files of a deck on threads at
once (zlib lets go of the GIL) and takes the unchanged ones from the pack;
whatever the threads, the deflated entries, their order, what is counted as
reused and the pack saved for the next build are those of ``deflated`` called
file by file.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ankigen.cache import stored_values
from ankigen.model import MediaFile
from ankigen.package.media_pack import MediaPack
from ankigen.render import MediaCache


def _media(cache: MediaCache) -> list[MediaFile]:
    on_disk = [cache.put(f"d{i:03}.svg", f"<svg>{i}</svg>".encode() * (i + 1)) for i in range(70)]
    held = [MediaFile(f"h{i:03}.svg", None, random.Random(i).randbytes(300)) for i in range(10)]
    return [*on_disk[:40], *held, *on_disk[40:], MediaFile("empty.svg", None, b"")]


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_deflate_what_one_deflates_cold_and_warm(tmp_path: Path, threads: int) -> None:
    cache = MediaCache(tmp_path / "cache")
    media = _media(cache)
    reused = {}
    for rebuild in ("cold", "warm"):
        with MediaPack(cache, "one") as pack:
            one = [pack.deflated(file) for file in media]
            reused_one = pack.reused
            pack.save()
        with MediaPack(cache, "many") as pack:
            many = list(pack.deflated_all(media, threads=threads))
            reused[rebuild] = pack.reused
            pack.save()
        assert many == one
        assert reused[rebuild] == reused_one
        packs = [stored_values(cache.store, "pack", stem) for stem in ("one", "many")]
        assert packs[0] == packs[1]
    assert reused == {"cold": 0, "warm": len(media)}


def test_one_thread_or_one_file_is_deflated_here(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path / "cache")
    media = _media(cache)
    with MediaPack(cache, "deck") as pack:
        assert list(pack.deflated_all(media, threads=1)) == [pack.deflated(f) for f in media]
        assert list(pack.deflated_all(media[:1])) == [pack.deflated(media[0])]
