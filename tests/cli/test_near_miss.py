"""Near-miss syntax (format section 13) in a deck written by someone else, through the CLI.

Each typo is put into an otherwise correct statistics deck: ``check`` warns at
its line and column with its code, and ``check --strict`` fails on it. The
correct deck, and correct constructs that look like near misses, stay clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

#: A small deck as a new author writes it; line 9 is where each typo goes.
DECK = """\
# Statistics

## Centre

What is the mean? ::: The sum of the values divided by their count.

The {{c1::median}} is the middle value of the sorted sample.

{line}

Outlier ::: A value far from the rest. <!-- id: term-outlier -->
Mode ::: The most frequent value. <!-- id: term-mode -->
"""
TYPO_LINE = 9

NEAR_MISSES = [
    pytest.param("What is a mode?:::The most frequent value.", 16, "AG520", id="glued-separator"),
    pytest.param(
        "What is a range? :: The largest minus the smallest.", 18, "AG521", id="two-colons"
    ),
    pytest.param("What is a range? :::: The largest minus the smallest.", 18, "AG521", id="four"),
    pytest.param("The {{c1:mode}} is the most frequent value.", 5, "AG510", id="one-colon"),
    pytest.param("The {c1::mode}} is the most frequent value.", 5, "AG511", id="one-brace"),
    pytest.param("The {{ c1::mode }} is the most frequent value.", 5, "AG512", id="spaces"),
    pytest.param("The {{c 1::mode}} is the most frequent value.", 5, "AG512", id="spaced-number"),
    pytest.param("The {{c1::mode}} and the {{c2:mean}} differ.", 26, "AG510", id="in-a-cloze-item"),
    pytest.param("The == mode== is the most frequent value.", 5, "AG530", id="mark-open"),
    pytest.param("The ==mode == is the most frequent value.", 5, "AG530", id="mark-close"),
]

#: Malformed clozes that were already errors: they keep failing, now with a column and code.
CLOZE_ERRORS = [
    pytest.param("The {{c1::mode} is the most frequent value.", 5, "AG504", id="unclosed"),
    pytest.param("The {{c1::}} is the most frequent value.", 5, "AG503", id="empty"),
]


def check(project: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["check", str(project / "content"), *args])


def records(result: Result) -> list[dict[str, object]]:
    diagnostics = json.loads(result.stdout)["diagnostics"]
    assert isinstance(diagnostics, list)
    return diagnostics


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    return tmp_path


def write_deck(project: Path, line: str) -> None:
    (project / "content" / "stats.md").write_text(DECK.replace("{line}", line), "utf-8")


def test_the_deck_without_typos_passes_strict(project: Path) -> None:
    write_deck(project, "What is the variance? ::: The mean squared distance from the mean.")
    result = check(project, "--strict")
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output


@pytest.mark.parametrize(("line", "column", "code"), NEAR_MISSES)
def test_near_miss_warns_at_its_place(project: Path, line: str, column: int, code: str) -> None:
    write_deck(project, line)
    result = check(project, "--format", "json")
    assert result.exit_code == 0, result.output
    found = [(r["line"], r["column"], r["code"], r["severity"]) for r in records(result)]
    assert found == [(TYPO_LINE, column, code, "warning")]


@pytest.mark.parametrize(("line", "column", "code"), NEAR_MISSES + CLOZE_ERRORS)
def test_near_miss_fails_strict(project: Path, line: str, column: int, code: str) -> None:
    write_deck(project, line)
    result = check(project, "--strict")
    assert result.exit_code == 1
    assert f"content/stats.md:{TYPO_LINE}:{column}: " in result.output


def test_a_misspelt_cloze_in_a_cloze_item_is_no_longer_lost_silently(project: Path) -> None:
    write_deck(project, "The {{c1::mode}} and the {{c2:mean}} differ.")
    result = check(project)
    assert "'{{c2:' is not a cloze Anki reads (it has one colon): write '{{c2::'" in result.output


def test_one_mistake_in_math_is_one_error_in_the_words_of_text(project: Path) -> None:
    write_deck(project, "Energy: $E = {{c::m}} c^2$")
    result = check(project)
    assert result.exit_code == 1
    # (The formula is also a claim no check quotes: that warning is not about the typo.)
    errors = [
        line
        for line in result.output.splitlines()
        if f"stats.md:{TYPO_LINE}" in line and "warning:" not in line
    ]
    assert errors == [
        f"content/stats.md:{TYPO_LINE}:9: formula $E = {{{{c::m}}}} c^2$: "
        "cloze '{{c::' needs a number from 1 up, e.g. '{{c1::'"
    ]
    codes = [
        (r["line"], r["code"])
        for r in records(check(project, "--format", "json"))
        if r["severity"] == "error"
    ]
    assert codes == [(TYPO_LINE, "AG501")]


def test_markdown_the_build_does_not_read(project: Path) -> None:
    write_deck(project, "")
    (project / "content" / "bio").mkdir()
    (project / "content" / "bio" / "b.md").write_text("Cell ::: The unit of life.\n", "utf-8")
    (project / "content" / "notes.markdown").write_text("Gene ::: A unit of heredity.\n")
    (project / "content" / ".drafts").mkdir()
    (project / "content" / ".drafts" / "x.md").write_text("hidden ::: not reported\n")
    result = check(project, "--format", "json")
    assert result.exit_code == 0, result.output
    found = {(r["file"], r["line"], r["code"]) for r in records(result)}
    assert found == {("content/bio/b.md", 1, "AG540"), ("content/notes.markdown", 1, "AG540")}
    assert check(project, "--strict").exit_code == 1


def test_a_subfolder_built_as_well_is_read(project: Path) -> None:
    write_deck(project, "")
    (project / "content" / "bio").mkdir()
    (project / "content" / "bio" / "b.md").write_text("Cell ::: The unit of life.\n", "utf-8")
    result = check(project, str(project / "content" / "bio"), "--strict")
    assert result.exit_code == 0, result.output
