"""Images in a known folder cost one lstat per reference, with the same answers as
resolving the whole path; raster images ship from where they are, SVGs as their
sanitised bytes, held in memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ankigen.cache import CacheTuning
from ankigen.render import Failed, Folders, MediaCache, Place, Shipped, _images, ship_image
from tests.image_bytes import png

PNG = png()
SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" '
    b'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">'
    b'<rect width="2" inkscape:label="editor metadata"/></svg>'
)
#: Where the reference stands, for the error when it fails.
HERE = Place("part/deck.md", 3)


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    (root / "part").mkdir(parents=True)
    (root / "img.png").write_bytes(PNG)
    (root / "part" / "pic.svg").write_bytes(SVG)
    (root / "part" / "deck.md").write_text("x", "utf-8")
    (tmp_path / "outside.png").write_bytes(PNG + b"secret")
    os.symlink(tmp_path / "outside.png", root / "link.png")
    return root


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("../img.png", None),
        ("../part/../img.png", None),
        ("../../outside.png", "leaves the content folder"),
        ("../link.png", "leaves the content folder"),
        ("../missing.png", "not found"),
        ("..", "not found"),
        ("../part", "not found"),
    ],
)
def test_fast_and_slow_paths_agree(root: Path, target: str, problem: str | None) -> None:
    deck = root / "part" / "deck.md"
    cache = MediaCache(root.parent / "cache")
    fast = ship_image(target, deck, root, cache, place=HERE, folders=Folders(root))
    slow = ship_image(target, deck, root, cache, place=HERE)
    assert fast == slow
    if problem is None:
        assert isinstance(fast, Shipped) and fast.media.path == (root / "img.png").resolve()
        assert fast.media.path.read_bytes() == PNG
    else:
        assert isinstance(fast, Failed) and problem in fast.diagnostic.message
        assert (fast.diagnostic.file, fast.diagnostic.line) == ("part/deck.md", 3)


def test_a_folder_is_resolved_once(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folders = Folders(root)
    deck = root / "part" / "deck.md"
    cache = MediaCache(root.parent / "cache")
    ship_image("../img.png", deck, root, cache, place=HERE, folders=folders)
    calls: list[Path] = []
    real = Path.resolve

    def counting(self: Path, strict: bool = False) -> Path:
        calls.append(self)
        return real(self, strict)

    monkeypatch.setattr(Path, "resolve", counting)
    assert isinstance(
        ship_image("../img.png", deck, root, cache, place=HERE, folders=folders), Shipped
    )
    assert calls == []


def test_an_svg_ships_its_sanitised_bytes_on_the_fast_path(root: Path) -> None:
    deck = root / "part" / "deck.md"
    cache = MediaCache(root.parent / "cache")
    fast = ship_image("pic.svg", deck, root, cache, place=HERE, folders=Folders(root))
    slow = ship_image("pic.svg", deck, root, cache, place=HERE)
    assert fast == slow
    # Held in memory: no file in the cache, and never the source file's own bytes.
    assert isinstance(fast, Shipped) and fast.media.path is None
    assert not cache.folder.exists()
    shipped = fast.media.read()
    assert b"<rect" in shipped and b"inkscape" not in shipped
    assert fast.source == (root / "part" / "pic.svg").resolve()


def test_past_the_memory_budget_an_svg_ships_from_a_cache_file(root: Path) -> None:
    deck = root / "part" / "deck.md"
    held = ship_image("pic.svg", deck, root, MediaCache(root.parent / "a"), place=HERE)
    cache = MediaCache(root.parent / "cache", CacheTuning(held_bytes=10))
    written = ship_image("pic.svg", deck, root, cache, place=HERE)
    assert isinstance(held, Shipped) and isinstance(written, Shipped)
    assert written.media.path == cache.path(held.media.name)
    assert written.media.name == held.media.name and written.media.read() == held.media.read()


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no O_NOFOLLOW here")
def test_a_symlink_put_in_place_of_a_judged_file_is_not_read(root: Path) -> None:
    # _read opens what the lstat judged; a symlink swapped in since is refused, not followed.
    with pytest.raises(OSError):
        _images._read(root / "link.png")
    data, before, after = _images._read(root / "img.png")
    assert data == PNG and before.st_size == after.st_size == len(PNG)
