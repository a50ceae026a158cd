"""Helpers shared by the reliability tests: run the CLI in-process, inspect decks."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

#: A deck that builds cleanly in either math mode, with no media.
GOOD_DECK = (
    "# Good deck\n\nWhat is kept when a build fails? ::: The previous deck. <!-- id: kept -->\n"
)


#: A small project (content with an image, a figure script) for reproducibility tests.
REPRO_FIXTURE = Path(__file__).parent / "fixtures" / "repro"


def repro_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the repro project, made the current folder, outside any git repository."""
    work = tmp_path / "project"
    shutil.copytree(REPRO_FIXTURE, work)
    monkeypatch.chdir(work)
    # Never pick up a git repository above the temporary folder.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    return work


def run_cli(args: Sequence[str]) -> Result:
    """Run ``ankigen ARGS`` in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(main, list(args), catch_exceptions=True)


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the media cache excluded), by relative path."""
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(folder).parts
    }


def leftovers(out: Path) -> list[str]:
    """Temporary or partial files a build may have left in the output folder."""
    found = [p.name for p in out.iterdir() if p.name != ".cache" and p.suffix != ".apkg"]
    found += [p.name for p in out.glob("*.apkg") if p.name.startswith(".")]
    cache = out / ".cache"
    if cache.is_dir():
        found += [f".cache/{p.name}" for p in cache.iterdir() if p.name.startswith(".")]
    return sorted(found)


def deck_rows(apkg: Path, query: str) -> list[tuple]:  # type: ignore[type-arg]
    """Run ``query`` on the collection inside an ``.apkg``."""
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(apkg) as archive:
            archive.extract("collection.anki2", tmp)
        connection = sqlite3.connect(Path(tmp) / "collection.anki2")
        try:
            return connection.execute(query).fetchall()
        finally:
            connection.close()


def note_fields(apkg: Path) -> list[list[str]]:
    """Every note's fields, in note id order."""
    return [flds.split("\x1f") for (flds,) in deck_rows(apkg, "select flds from notes order by id")]
