"""The command line through click's CliRunner: output, summaries and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project folder, made the current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    return tmp_path


def add(project: Path, *names: str) -> None:
    for name in names:
        shutil.copy(FIXTURES / name, project / "content" / name)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_help_lists_both_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert "build" in result.output and "check" in result.output


def test_build_help_explains_options() -> None:
    result = invoke("build", "--help")
    assert result.exit_code == 0
    for option in ("--out", "--figures", "--math", "--figure-format"):
        assert option in result.output


def test_build_defaults_to_content_folder_and_prints_a_summary(project: Path) -> None:
    add(project, "good.md")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 0, result.output
    assert (project / "build" / "good.apkg").is_file()
    assert "Built 1 deck: 2 notes, 2 cards" in result.output
    assert "1 check passed" in result.output


def test_pyproject_sets_the_folders(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.ankigen]\ncontent = "questions"\nout = "dist"\n', "utf-8"
    )
    (project / "questions").mkdir()
    shutil.copy(FIXTURES / "good.md", project / "questions" / "good.md")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 0, result.output
    assert (project / "dist" / "good.apkg").is_file()


def test_content_errors_are_all_reported_with_file_and_line(project: Path) -> None:
    add(project, "broken.md")
    result = invoke("build", "--math", "mathjax")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("content/")]
    assert lines == [
        "content/broken.md:2:1: unknown front matter key 'colour' (known: deck, key, tags, "
        "subdecks, math, context, prompt, claims, macros)",
        "content/broken.md:6:1: empty question before ':::': write the question before ':::'",
        "content/broken.md:11:1: check failed: `2` + `2` == `5`: left side is 4, right side is 5",
    ]
    assert "Traceback" not in result.output
    assert not (project / "build" / "broken.apkg").exists()


def test_a_failed_build_keeps_the_previous_deck(project: Path) -> None:
    add(project, "good.md")
    assert invoke("build", "--math", "mathjax").exit_code == 0
    deck = project / "build" / "good.apkg"
    before = deck.read_bytes()
    (project / "content" / "good.md").write_text("# Good deck\n\n::: broken\n", "utf-8")
    assert invoke("build", "--math", "mathjax").exit_code == 1
    assert deck.read_bytes() == before


def test_usage_errors_exit_2(project: Path) -> None:
    assert invoke("build", "no/such/file.md").exit_code == 2
    assert invoke("build", "--math", "latex").exit_code == 2
    assert invoke("check", "--format", "xml").exit_code == 2
    empty = invoke("build")  # content/ holds no .md files
    assert empty.exit_code == 2
    assert "no content files" in empty.output


def test_check_prints_a_one_line_summary(project: Path) -> None:
    add(project, "good.md")
    result = invoke("check")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        "Checked 1 deck: 2 items, 1 check, all passed; 0 errors, 0 warnings."
    )
    assert not (project / "build" / "good.apkg").exists()


def test_the_summary_never_says_all_passed_beside_errors(project: Path) -> None:
    """A proved check beside an error elsewhere: the checks are counted, not called all passed."""
    add(project, "good.md")
    (project / "content" / "bad.md").write_text("# Bad\n\n::: An answer alone.\n", "utf-8")
    result = invoke("check")
    assert result.exit_code == 1, result.output
    assert (
        result.stdout.strip()
        == "Checked 2 decks: 3 items, 1 check, 1 passed, 0 failed; 1 error, 0 warnings."
    )


def test_the_summary_of_a_deck_without_checks_claims_none(project: Path) -> None:
    (project / "content" / "plain.md").write_text("# Plain\n\nQ? ::: A.\n", "utf-8")
    result = invoke("check")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Checked 1 deck: 1 item, 0 checks; 0 errors, 0 warnings."


def test_check_warns_about_unverified_claims_and_strict_fails(project: Path) -> None:
    add(project, "warning.md")
    relaxed = invoke("check")
    assert relaxed.exit_code == 0
    assert "content/warning.md:3:28: warning: unverified claim $k = 8$" in relaxed.stderr
    strict = invoke("check", "--strict")
    assert strict.exit_code == 1
    assert "content/warning.md:3:28: unverified claim $k = 8$" in strict.stderr


def test_check_json_gives_machine_readable_records(project: Path) -> None:
    add(project, "broken.md")
    result = invoke("check", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    first = report["diagnostics"][0]
    assert first == {
        "file": "content/broken.md",
        "line": 2,
        "column": 1,
        "severity": "error",
        "code": "AG104",
        "message": (
            "unknown front matter key 'colour' "
            "(known: deck, key, tags, subdecks, math, context, prompt, claims, macros)"
        ),
    }
    assert report["summary"]["ok"] is False
    assert report["summary"]["failed_checks"] == 1


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0 and "ankigen" in result.output


def test_rendering_shows_progress_on_a_terminal(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    formulas = "\n\n".join(f"Formula {n}? ::: $x^{{{n}}} + y_{{{n}}}$" for n in range(30))
    (project / "content" / "many.md").write_text(f"# Many\n\n{formulas}\n", "utf-8")
    monkeypatch.setattr("ankigen.cli.app._is_terminal", lambda: True)
    result = invoke("build")
    assert result.exit_code == 0, result.output
    assert "Rendering" in result.stdout
    assert "images: 30 rendered, 0 from cache" in result.stdout


def test_no_progress_bar_in_logs(project: Path) -> None:
    add(project, "good.md")
    result = invoke("build")
    assert result.exit_code == 0, result.output
    assert "Rendering" not in result.stdout


def test_check_github_format_prints_workflow_commands(project: Path) -> None:
    add(project, "warning.md")
    result = invoke("check", "--format", "github")
    assert result.exit_code == 0
    assert "::warning file=content/warning.md,line=3" in result.stdout
    assert "::unverified claim" in result.stdout


def test_build_strict_fails_on_a_warning_and_writes_nothing(project: Path) -> None:
    add(project, "warning.md")
    result = invoke("build", "--strict", "--math", "mathjax")
    assert result.exit_code == 1
    assert "content/warning.md:3:28: unverified claim $k = 8$" in result.stderr
    assert not (project / "build" / "warning.apkg").exists()
    relaxed = invoke("build", "--math", "mathjax")
    assert relaxed.exit_code == 0
    assert (project / "build" / "warning.apkg").is_file()


def test_strict_applies_to_parse_warnings_too(project: Path) -> None:
    (project / "content" / "empty.md").write_text("# Empty\n\nJust prose.\n", "utf-8")
    assert invoke("check").exit_code == 0
    assert invoke("check", "--strict").exit_code == 1


def test_unverified_claims_are_followed_once_by_how_to_prove_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "h.md").write_text(
        "# History\n\nWall? ::: It fell in 1989.\n\nCarta? ::: Sealed in 1215.\n", "utf-8"
    )
    result = invoke("check")
    assert result.exit_code == 0, result.output
    hint = [line for line in result.stderr.splitlines() if "unverified claims:" in line]
    assert len(hint) == 1
    assert hint[0].startswith("2 unverified claims: each number or formula on a card is proved")
    assert "cite `1989`" in hint[0] and "ankigen guide 12.12" in hint[0]
    json_output = invoke("check", "--format", "json")
    assert "unverified claims:" not in json_output.stdout + json_output.stderr
