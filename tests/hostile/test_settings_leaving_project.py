"""A project's settings cannot make a build read outside it.

``[tool.ankigen]`` comes with the content (a pull request can change it). A
``macros`` file such as ``/proc/self/environ`` was read and its first line
quoted in the error (an environment variable in a CI log); a ``content``
folder elsewhere shipped that folder's files as decks. Settings that lead
outside the project are refused; paths named on the command line are used
as given.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.support import GOOD_DECK, run_cli


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with one good deck, made the current folder; ``outside/private.md`` beside it."""
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    (root / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "private.md").write_text("# Private\n\nPIN? ::: 4711\n", "utf-8")
    monkeypatch.chdir(root)
    return root


def settings(root: Path, line: str) -> None:
    (root / "pyproject.toml").write_text(f"[tool.ankigen]\n{line}\n", "utf-8")


def test_a_macros_file_outside_the_project_is_not_read(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AAA_TOKEN", "ghp_secret")
    settings(project, 'macros = "/proc/self/environ"')
    result = run_cli(["check"])
    assert result.exit_code == 2, result.output
    assert "[tool.ankigen] macros leads outside the project" in result.stderr
    assert "ghp_secret" not in result.output


@pytest.mark.parametrize("key", ["content", "figures"])
def test_a_folder_setting_climbing_out_is_refused(project: Path, key: str) -> None:
    settings(project, f'{key} = "../outside"')
    result = run_cli(["build"])
    assert result.exit_code == 2, result.output
    assert f"[tool.ankigen] {key} leads outside the project" in result.stderr
    assert not (project / "build").exists()


def test_content_named_on_the_command_line_is_used_as_given(project: Path) -> None:
    out = project / "build"
    result = run_cli(["build", str(project.parent / "outside"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "private.apkg").is_file()
