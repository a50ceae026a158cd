"""A deck is replaced atomically: an interrupted write keeps the previous deck, leaves
no temporary file, and a written deck has the permissions any user file gets."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import genanki
import pytest

from ankigen.commands.build import BuildOptions, WriteError, run
from ankigen.model import MathMode
from tests.reliability.support import GOOD_DECK, files_in, leftovers, run_cli


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one good deck already built into ``out/``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    # The next build has something new to write.
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK + "\nA second question? ::: Yes.\n")
    return tmp_path


@pytest.fixture()
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _options(project: Path) -> BuildOptions:
    return BuildOptions(
        paths=(project / "content",),
        out_dir=project / "out",
        figures_dir=project / "figures",
        math=MathMode.MATHJAX,
    )


def _raise(exc: BaseException):  # type: ignore[no-untyped-def]
    def fail(*args: object, **kwargs: object) -> None:
        raise exc

    return fail


INTERRUPTIONS = {
    "ctrl-c in zip writing": ("ankigen.package._write_zip", KeyboardInterrupt()),
    "disk full in zip writing": (
        "ankigen.package._write_zip",
        OSError(errno.ENOSPC, "No space left on device"),
    ),
    "ctrl-c in genanki database": ("genanki.Package.write_to_db", KeyboardInterrupt()),
    "disk full in genanki database": (
        "genanki.Package.write_to_db",
        OSError(errno.ENOSPC, "No space left on device"),
    ),
    "ctrl-c at the rename": ("ankigen.package.os.replace", KeyboardInterrupt()),
}


@pytest.mark.parametrize("where", sorted(INTERRUPTIONS))
def test_interrupted_write_keeps_previous_deck(
    project: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files_in(project / "out")
    target, exc = INTERRUPTIONS[where]
    monkeypatch.setattr(target, _raise(exc))
    # A Ctrl-C goes through; a write error is named with the deck it concerns.
    expected = WriteError if isinstance(exc, OSError) else type(exc)
    with pytest.raises(expected):
        run(_options(project))
    assert files_in(project / "out") == before
    assert leftovers(project / "out") == []


def test_write_error_is_reported_not_a_traceback(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk is no content error, but the CLI still says what failed, plainly."""
    before = files_in(project / "out")
    monkeypatch.setattr(
        genanki.Package, "write_to_db", _raise(OSError(errno.ENOSPC, "No space left on device"))
    )
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit), result.exception
    assert "No space left on device" in result.stderr
    assert "deck.apkg" in result.stderr
    assert files_in(project / "out") == before
    assert leftovers(project / "out") == []


def test_unwritable_out_folder_is_reported(project: Path) -> None:
    (project / "blocker").write_text("a file where the output folder should be")
    result = run_cli(["build", "content", "--out", "blocker/out", "--math", "mathjax"])
    assert result.exit_code in (1, 2)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "blocker" in result.stderr


def test_deck_has_ordinary_permissions(project: Path, umask_022: None) -> None:
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    mode = (project / "out" / "deck.apkg").stat().st_mode & 0o777
    assert mode == 0o644


def test_deck_permissions_follow_umask(project: Path) -> None:
    old = os.umask(0o027)
    try:
        result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.output
    assert (project / "out" / "deck.apkg").stat().st_mode & 0o777 == 0o640


def test_successful_rebuild_replaces_deck_and_leaves_no_temp(project: Path) -> None:
    before = files_in(project / "out")
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    assert files_in(project / "out") != before
    assert leftovers(project / "out") == []


def test_package_module_writes_through_temp_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deck reaches its final name only by one rename of a complete, staged file."""
    renames: list[tuple[Path, Path]] = []
    real_replace = os.replace

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        renames.append((Path(src), Path(dst)))
        real_replace(src, dst)

    monkeypatch.setattr("ankigen.package.os.replace", spy)
    run(_options(project))
    final = project / "out" / "deck.apkg"
    into_place = [src for src, dst in renames if dst.resolve() == final.resolve()]
    assert len(into_place) == 1
    # The deck was written to a temporary name, then renamed inside a staging folder.
    assert into_place[0].parent.name.startswith(".staging-")
    staged = [src for src, dst in renames if dst == into_place[0]]
    assert len(staged) == 1 and staged[0].name.startswith(".deck-")
