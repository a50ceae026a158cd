"""Folders and defaults follow the content's project, not the current folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

FIGURE = "def draw(fig, formulas):\n    fig.add_subplot().plot([0, 1], [0, 1])\n"
CONTENT = "# Lines\n\nWhat does this show? ::: ![A line](figure:line) <!-- id: line -->\n"
MATH = "# Sums\n\nWhat is $1 + 1$? ::: Two. <!-- id: sum -->\n"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def project(root: Path, table: str | None = "") -> Path:
    """A deck project with a figure; ``table`` is [tool.ankigen]'s body, None for no file."""
    (root / "content").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "content" / "lines.md").write_text(CONTENT, "utf-8")
    (root / "figures" / "line.py").write_text(FIGURE, "utf-8")
    if table is not None:
        (root / "pyproject.toml").write_text(f"[tool.ankigen]\n{table}", "utf-8")
    return root


@pytest.mark.parametrize("table", [None, "", 'out = "dist"\n'])
def test_a_build_from_elsewhere_finds_figures_and_output_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str | None
) -> None:
    deck = project(tmp_path / "deck", table)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = invoke("build", str(deck / "content"))
    assert result.exit_code == 0, result.output
    out = "dist" if table and "dist" in table else "build"
    assert (deck / out / "lines.apkg").is_file()
    assert not list(elsewhere.iterdir())


def test_a_content_file_inside_the_project_finds_its_pyproject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = project(tmp_path / "deck", 'out = "dist"\n')
    monkeypatch.chdir(tmp_path)
    result = invoke("check", str(deck / "content" / "lines.md"))
    assert result.exit_code == 0, result.output
    assert (deck / "dist" / ".cache").is_dir()


def test_project_default_math_mode_applies_unless_the_command_line_says_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = project(tmp_path, 'math = "mathjax"\n')
    (deck / "content" / "sums.md").write_text(MATH, "utf-8")
    monkeypatch.chdir(deck)
    result = invoke("build", "content/sums.md")
    assert result.exit_code == 0, result.output
    assert "0 media" in result.output  # MathJax: no formula image
    result = invoke("build", "content/sums.md", "--math", "image")
    assert result.exit_code == 0, result.output
    assert "1 media" in result.output


def test_project_strictness_and_no_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = project(tmp_path, "strict = true\n")
    (deck / "content" / "claims.md").write_text(
        "# Claims\n\nHow many GPUs? ::: Exactly $k = 8$ of them.\n", "utf-8"
    )
    monkeypatch.chdir(deck)
    assert invoke("check").exit_code == 1
    assert invoke("check", "--no-strict").exit_code == 0


def test_check_takes_math_and_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = project(tmp_path, None)
    (deck / "content" / "sums.md").write_text(MATH, "utf-8")
    monkeypatch.chdir(deck)
    result = invoke("check", "--math", "image", "--out", "elsewhere")
    assert result.exit_code == 0, result.output
    assert any((deck / "elsewhere" / ".cache").iterdir())
    assert not (deck / "build").exists()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('math = "latex"\n', "math must be"),
        ('strict = "yes"\n', "strict must be"),
        ("colour = 1\n", "unknown [tool.ankigen] key 'colour'"),
    ],
)
def test_bad_project_settings_are_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, message: str
) -> None:
    project(tmp_path, table)
    monkeypatch.chdir(tmp_path)
    result = invoke("check")
    assert result.exit_code == 2
    assert message in result.output


def test_a_file_in_the_current_folder_builds_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sums.md").write_text(MATH, "utf-8")
    monkeypatch.chdir(tmp_path)
    result = invoke("build", "sums.md", "--math", "mathjax")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "build" / "sums.apkg").is_file()
