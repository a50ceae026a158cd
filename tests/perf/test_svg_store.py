"""An SVG image whose file is unchanged ships its stored sanitised bytes, the same as
reading and sanitising it again; any change to the file, a damaged store, or a
file changed just before the build reads it again."""

from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from ankigen.cache import CacheTuning, recipe, store_values, stored_values
from ankigen.commands.build import BuildOptions, run
from ankigen.model import MathMode
from ankigen.render import Folders, MediaCache, Place, Shipped, _images, ship_image
from ankigen.render._svg_store import SvgStore

SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="4"><title>t</title>'
    b'<rect x="0" width="1"/></svg>\n'
)
#: The same size as SVG, another picture.
OTHER = SVG.replace(b'x="0"', b'x="3"')
HERE = Place("deck.md", 1)
#: Files written by a test are seconds old at most: count them as settled.
SETTLED = CacheTuning(settled_ns=-(10**12))


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    (root / "pic.svg").write_bytes(SVG)
    (root / "deck.md").write_text("x", "utf-8")
    return root


def _ship(root: Path, cache: MediaCache, store: SvgStore | None) -> Shipped:
    folders = Folders(root)
    shipped = ship_image(
        "pic.svg", root / "deck.md", root, cache, place=HERE, folders=folders, store=store
    )
    assert isinstance(shipped, Shipped)
    return shipped


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    reads: list[Path] = []
    real = _images._read

    def counting(path: Path) -> tuple[bytes, os.stat_result, os.stat_result]:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(_images, "_read", counting)
    return reads


def _built_once(root: Path, cache: MediaCache) -> Shipped:
    store = SvgStore(cache, "deck")
    first = _ship(root, cache, store)
    store.save()
    return first


def test_an_unchanged_file_ships_its_stored_bytes_unread(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = MediaCache(tmp_path / "cache", SETTLED)
    fresh = _built_once(root, cache)
    reads = _counting_reads(monkeypatch)
    again = _ship(root, cache, SvgStore(cache, "deck"))
    assert reads == []
    assert again == fresh == _ship(root, MediaCache(tmp_path / "other"), None)
    assert b"<title>" not in again.media.read()


@pytest.mark.parametrize("change", ["same size, time set back", "longer", "replaced"])
def test_a_changed_file_is_read_again(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    cache = MediaCache(tmp_path / "cache", SETTLED)
    _built_once(root, cache)
    image = root / "pic.svg"
    before = image.stat()
    if change == "same size, time set back":
        image.write_bytes(OTHER)
        os.utime(image, ns=(before.st_atime_ns, before.st_mtime_ns))  # the change time moves on
    elif change == "longer":
        image.write_bytes(OTHER + b"\n")
    else:
        (root / "new.svg").write_bytes(OTHER)
        os.replace(root / "new.svg", image)  # another inode
    reads = _counting_reads(monkeypatch)
    again = _ship(root, cache, SvgStore(cache, "deck"))
    assert reads == [image]
    assert again == _ship(root, MediaCache(tmp_path / "other"), None)
    assert b'x="3"' in again.media.read()


def test_a_file_changed_just_before_the_build_is_not_stored(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = MediaCache(tmp_path / "cache")  # a file settles two seconds after its change
    _built_once(root, cache)  # the file is younger than two seconds
    reads = _counting_reads(monkeypatch)
    _ship(root, cache, SvgStore(cache, "deck"))
    assert reads == [root / "pic.svg"]


def test_a_file_changed_while_it_is_read_is_not_stored(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _images._read

    def racing(path: Path) -> tuple[bytes, os.stat_result, os.stat_result]:
        data, before, _ = real(path)
        path.write_bytes(OTHER)
        return data, before, os.stat(path)

    monkeypatch.setattr(_images, "_read", racing)
    cache = MediaCache(tmp_path / "cache", SETTLED)
    _built_once(root, cache)
    monkeypatch.setattr(_images, "_read", real)
    reads = _counting_reads(monkeypatch)
    again = _ship(root, cache, SvgStore(cache, "deck"))
    assert reads == [root / "pic.svg"] and b'x="3"' in again.media.read()


@pytest.mark.parametrize("damage", ["bytes", "truncated", "junk", "other code"])
def test_a_damaged_or_foreign_store_is_read_again(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    cache = MediaCache(tmp_path / "cache", SETTLED)
    fresh = _built_once(root, cache)
    rows = stored_values(cache.store, "svgs", "deck")
    assert len(rows) == 1
    (key, raw), damaged = next(iter(rows.items())), b""
    if damage == "bytes":  # the sanitised bytes no longer hash to their name
        damaged = raw.replace(b'x="0"', b'x="9"')
    elif damage == "truncated":
        damaged = raw[:-5]
    elif damage == "junk":
        damaged = b"\xff\xff\x00\x00not a store"
    if damaged:
        assert damaged != raw
        store_values(cache.store, "svgs", "deck", {key: damaged})
    else:
        monkeypatch.setattr(recipe, "code_fingerprint", lambda *_: "another version")
    reads = _counting_reads(monkeypatch)
    again = _ship(root, cache, SvgStore(cache, "deck"))
    assert reads == [root / "pic.svg"]
    assert again == fresh


def test_the_store_keeps_only_what_the_deck_shows_and_is_not_rewritten_unchanged(
    root: Path, tmp_path: Path
) -> None:
    cache = MediaCache(tmp_path / "cache", SETTLED)
    _built_once(root, cache)
    written = stored_values(cache.store, "svgs", "deck")
    store = SvgStore(cache, "deck")
    _ship(root, cache, store)
    # to show that an unchanged store is not written again
    store_values(cache.store, "svgs", "deck", {})
    store.save()
    assert stored_values(cache.store, "svgs", "deck") == {}
    store_values(cache.store, "svgs", "deck", written)
    SvgStore(cache, "deck").save()  # a build that no longer shows the image
    assert stored_values(cache.store, "svgs", "deck") == {}


def test_past_the_memory_budget_nothing_is_stored(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = MediaCache(tmp_path / "cache", CacheTuning(held_bytes=10, settled_ns=-(10**12)))
    first = _built_once(root, cache)
    assert first.media.path is not None  # written to the cache instead
    reads = _counting_reads(monkeypatch)
    assert _ship(root, cache, SvgStore(cache, "deck")) == first
    assert reads == [root / "pic.svg"]


def test_builds_from_the_store_write_what_cold_builds_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    content = tmp_path / "content"
    content.mkdir()
    deck = content / "deck.md"
    deck.write_text("# Pictures\n\nWhich one? ::: This one. ![a bar](pic.svg)\n", "utf-8")
    (content / "pic.svg").write_bytes(SVG)

    def build(out: str) -> bytes:
        options = BuildOptions(
            (content,), tmp_path / out, tmp_path / "figures", MathMode.MATHJAX, cache_tuning=SETTLED
        )
        result = run(options)
        assert not result.failed, result.diagnostics
        return (tmp_path / out / "deck.apkg").read_bytes()

    def cold() -> bytes:
        shutil.rmtree(tmp_path / "cold", ignore_errors=True)
        return build("cold")

    build("out")
    assert stored_values(MediaCache(tmp_path / "out" / ".cache").store, "svgs", "deck")
    deck.write_text(deck.read_text("utf-8").replace("This one.", "This one, here."), "utf-8")
    reads = _counting_reads(monkeypatch)
    warm = build("out")
    assert reads == []  # the image came from the store
    assert warm == cold()
    (content / "pic.svg").write_bytes(OTHER)  # same size, another picture
    reads.clear()
    warm = build("out")
    assert reads == [(content / "pic.svg").resolve()]
    assert warm == cold()
    with zipfile.ZipFile(io.BytesIO(warm)) as apkg:
        assert b'x="3"' in apkg.read("0")
