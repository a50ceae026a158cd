"""A project cannot make the build write outside it: a ``build`` link leaving it is refused.

A link committed to the repository (``build -> /home/me``), or an ``out``
setting that climbs out, would land the deck, its cache and the preview
elsewhere. The folder named with ``--out`` on the command line is the user's
own choice and is used as given.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reliability.support import GOOD_DECK, run_cli


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder with one good deck, made the current folder; ``outside`` beside it."""
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    (root / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    (tmp_path / "outside").mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.mark.parametrize("command", [["build"], ["check"], ["preview"]])
def test_a_build_link_leaving_the_project_is_refused(project: Path, command: list[str]) -> None:
    os.symlink(project.parent / "outside", project / "build")
    result = run_cli(command)
    assert result.exit_code == 2, result.output
    assert "the output folder build leads outside the project" in result.stderr
    assert "name the folder with --out" in result.stderr
    assert list((project.parent / "outside").iterdir()) == []


def test_a_cache_link_inside_build_is_refused(project: Path) -> None:
    (project / "build").mkdir()
    os.symlink(project.parent / "outside", project / "build" / ".cache")
    result = run_cli(["build"])
    assert result.exit_code == 2, result.output
    assert "build/.cache leads outside the project" in result.stderr
    assert list((project.parent / "outside").iterdir()) == []


def test_an_out_setting_climbing_out_is_refused(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.ankigen]\nout = "../outside"\n', "utf-8")
    result = run_cli(["build"])
    assert result.exit_code == 2, result.output
    assert "leads outside the project" in result.stderr
    assert list((project.parent / "outside").iterdir()) == []


def test_a_link_inside_the_project_is_fine(project: Path) -> None:
    (project / "decks").mkdir()
    os.symlink(project / "decks", project / "build")
    result = run_cli(["build"])
    assert result.exit_code == 0, result.output
    assert (project / "decks" / "deck.apkg").is_file()


def test_out_named_on_the_command_line_is_used_as_given(project: Path) -> None:
    os.symlink(project.parent / "outside", project / "build")
    result = run_cli(["build", "--out", "build"])
    assert result.exit_code == 0, result.output
    assert (project.parent / "outside" / "deck.apkg").is_file()
