"""Claim levels (format section 18): ``claims: off`` silences coverage, checks still run."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

ITEM = "# Bank\n\nHow many sides has a square? ::: 4, all equal. <!-- id: square -->\n"
CHECKED = ITEM + "\n```check\nassert `5` == 5\n```\n"


def check(root: Path, content: str, front: str = "", table: str | None = None) -> Result:
    (root / "content").mkdir()
    head = f"---\n{front}---\n" if front else ""
    (root / "content" / "bank.md").write_text(head + content, "utf-8")
    if table is not None:
        (root / "pyproject.toml").write_text(f"[tool.ankigen]\n{table}", "utf-8")
    return CliRunner().invoke(main, ["check", str(root / "content")])


def test_the_default_level_warns_about_an_unquoted_number(tmp_path: Path) -> None:
    result = check(tmp_path, ITEM)
    assert "unverified claim `4`" in result.output


@pytest.mark.parametrize(
    ("front", "table"),
    [
        ("claims: off\n", None),
        ("", 'claims = "off"\n'),
        ("claims: 'off'\n", 'claims = "answers"\n'),
    ],
)
def test_level_off_reports_no_claim(tmp_path: Path, front: str, table: str | None) -> None:
    result = check(tmp_path, ITEM, front, table)
    assert result.exit_code == 0, result.output
    assert "unverified claim" not in result.output


def test_front_matter_overrides_the_project_level(tmp_path: Path) -> None:
    result = check(tmp_path, ITEM, "claims: answers\n", 'claims = "off"\n')
    assert "unverified claim `4`" in result.output


def test_at_level_off_checks_still_run_and_quotes_must_hold(tmp_path: Path) -> None:
    result = check(tmp_path, CHECKED, "claims: off\n")
    assert result.exit_code == 1
    assert "check quotes `5`, but the item does not say it" in result.output


def test_an_unknown_level_is_an_error_at_its_line(tmp_path: Path) -> None:
    result = check(tmp_path, ITEM, "claims: some\n")
    assert result.exit_code == 1
    assert "bank.md:2:1: front matter 'claims' must be 'answers', 'all' or 'off', not 'some'" in (
        result.output
    )


def test_an_unknown_project_level_is_a_usage_error(tmp_path: Path) -> None:
    result = check(tmp_path, ITEM, table='claims = "most"\n')
    assert result.exit_code == 2
    assert '[tool.ankigen] claims must be "answers", "all" or "off"' in result.output


def test_a_number_quoted_for_its_formula_is_named_in_the_warning(tmp_path: Path) -> None:
    content = (
        "# Gas\n\nWhat is R? ::: $R \\approx 8.314$ J/(mol K).\n\n```check\ncite `8.314`\n```\n"
    )
    result = check(tmp_path, content)
    assert (
        "unverified claim $R \\approx 8.314$: quote it in a check, or cite it; the check "
        "quotes `8.314`, a number inside this formula: a formula on the card is quoted whole"
    ) in result.output
