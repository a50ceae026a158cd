"""Hostile .apkg files: refused with a clear message, or read with the danger neutralised."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import genanki

from tests.importers.package_support import BASIC, PNG, note, rewrite_entry, write_package
from tests.reliability.support import run_cli


def _package(tmp_path: Path, *notes_: genanki.Note) -> Path:
    notes = list(notes_) or [note(BASIC, "Q?", "A.", guid="g1")]
    return write_package(tmp_path / "deck.apkg", {"Deck": notes})


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    package = _package(tmp_path)
    rewrite_entry(package, "0", b"\0" * (8 * 1024 * 1024))  # 8 MB of zeros packs to ~8 kB
    result = run_cli(["import", str(package), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "refused as a zip bomb" in result.output
    assert not (tmp_path / "out").exists()


def test_a_media_name_that_leaves_the_folder_is_never_written(tmp_path: Path) -> None:
    package = _package(tmp_path, note(BASIC, 'Q <img src="../evil.png">', "A.", guid="g1"))
    rewrite_entry(package, "0", PNG)
    rewrite_entry(package, "media", json.dumps({"0": "../evil.png"}).encode())
    out = tmp_path / "sub" / "out"
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "sub" / "evil.png").exists()
    assert sorted(p.name for p in out.iterdir()) == ["deck.md"]
    assert "not carried over: media file named '../evil.png'" in result.stderr
    assert "not carried over: image '../evil.png' (not a media file of the deck)" in result.stderr


def test_a_collection_that_is_not_sqlite_is_a_clear_error(tmp_path: Path) -> None:
    package = _package(tmp_path)
    with zipfile.ZipFile(package) as archive:
        name = next(n for n in archive.namelist() if n.startswith("collection"))
    rewrite_entry(package, name, b"this is not a database" * 100)
    result = run_cli(["import", str(package), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "not an Anki package" in result.output
    assert "Traceback" not in result.output


def test_a_file_that_is_not_a_zip_is_a_clear_error(tmp_path: Path) -> None:
    package = tmp_path / "deck.apkg"
    package.write_text("hello", "utf-8")
    result = run_cli(["import", str(package), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_scripts_and_handlers_in_fields_never_reach_the_content(tmp_path: Path) -> None:
    hostile = note(
        BASIC,
        'Q<script>alert(1)</script> <img src="x.png" onerror="alert(2)">',
        '<a href="javascript:alert(3)">A</a><iframe src="http://x"></iframe>'
        '<div style="x" onclick="alert(4)">B</div>',
        guid="g1",
    )
    out = tmp_path / "out"
    result = run_cli(["import", str(_package(tmp_path, hostile)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "deck.md").read_text("utf-8")
    assert "alert" not in text and "<script" not in text and "javascript" not in text
    assert "Q ::: A\n\nB\n" in text
    assert "not carried over: image 'x.png' (not in the package)" in result.stderr
    for what in ("<script> and its content", "<iframe> and its content", "link target"):
        assert f"not carried over: {what}" in result.stderr


def test_a_media_file_that_is_no_image_is_never_written(tmp_path: Path) -> None:
    # Written next to the content, "evil.md" would be read as a deck, "pyproject.toml" as settings.
    hostile = note(BASIC, 'Q <img src="evil.md"> <img src="pyproject.toml">', "A.", guid="g1")
    package = _package(tmp_path, hostile)
    rewrite_entry(package, "0", b"# Evil\n\nQ ::: A\n")
    rewrite_entry(package, "1", b"[tool.ankigen]\n")
    rewrite_entry(package, "media", json.dumps({"0": "evil.md", "1": "pyproject.toml"}).encode())
    out = tmp_path / "out"
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["deck.md"]
    assert "image 'evil.md' (not a PNG, JPEG, GIF, SVG or WebP file)" in result.stderr


def test_nothing_is_written_through_a_symbolic_link_in_the_output(tmp_path: Path) -> None:
    package = _package(tmp_path, note(BASIC, 'Q <img src="a.png">', "A.", guid="g1"))
    rewrite_entry(package, "0", PNG)
    rewrite_entry(package, "media", json.dumps({"0": "a.png"}).encode())
    out, outside = tmp_path / "out", tmp_path / "outside.png"
    out.mkdir()
    (out / "a.png").symlink_to(outside)  # dangling: writing through it would create `outside`
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert not outside.exists()
    assert "media file a.png already exists with other bytes: kept as it was" in result.stderr
