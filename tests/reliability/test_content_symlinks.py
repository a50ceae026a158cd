"""A content file that is a symbolic link is read only when it stays inside its content
folder: ``content/x.md -> /etc/passwd`` must never reach a card."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.reliability.support import note_fields, run_cli

BUILD = ["build", "--out", "out", "--math", "mathjax"]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "secret.md").write_text("Secret question? ::: The secret answer.\n")
    return tmp_path


def test_link_to_a_system_file_is_refused(project: Path) -> None:
    os.symlink("/etc/passwd", project / "content" / "x.md")
    result = run_cli([*BUILD, "content"])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[0] == (
        "content/x.md:1:1: content file is a symbolic link to a file outside the content "
        "folder 'content'; copy the file into the folder instead of linking it"
    )
    assert "root:" not in result.output
    assert not (project / "out" / "x.apkg").exists()


def test_a_file_named_directly_is_judged_against_its_own_folder(project: Path) -> None:
    os.symlink("../secret.md", project / "content" / "deck.md")
    result = run_cli([*BUILD, "content/deck.md"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("content/deck.md:1:1: content file is a symbolic link")


def test_link_inside_the_folder_is_built(project: Path) -> None:
    (project / "content" / "drafts").mkdir()
    (project / "content" / "drafts" / "real.md").write_text("# Real\n\nInside? ::: Yes.\n")
    os.symlink("drafts/real.md", project / "content" / "deck.md")
    result = run_cli([*BUILD, "content"])
    assert result.exit_code == 0, result.output
    assert note_fields(project / "out" / "deck.apkg")[0][:2] == ["Inside?", "Yes."]
