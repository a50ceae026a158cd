"""The closing line of ``check`` never says "all passed" beside errors (format section 18)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ankigen.cli.app import main


def _summary(root: Path, content: str) -> str:
    (root / "content").mkdir()
    (root / "content" / "bank.md").write_text(content, "utf-8")
    result = CliRunner().invoke(main, ["check", str(root / "content")])
    return result.output.strip().splitlines()[-1]


def test_a_clean_deck_says_all_passed(tmp_path: Path) -> None:
    text = "# B\n\nSides of a square? ::: 4. <!-- id: s -->\n\n```check\nassert `4` == 2*2\n```\n"
    assert _summary(tmp_path, text) == (
        "Checked 1 deck: 1 item, 1 check, all passed; 0 errors, 0 warnings."
    )


def test_checks_passed_failed_and_quotes_not_found_are_counted_apart(tmp_path: Path) -> None:
    text = (
        "# B\n\nSides of a square? ::: 4, and 8 halves. <!-- id: s -->\n\n```check\n"
        "assert `4` == 2*2\nassert `8` == 3*3\ncite `5`\n```\n"
    )
    assert _summary(tmp_path, text) == (
        "Checked 1 deck: 1 item, 2 checks, 1 passed, 1 failed, 1 quote not found;"
        " 2 errors, 0 warnings."
    )


def test_an_error_outside_the_checks_is_no_all_passed(tmp_path: Path) -> None:
    text = "---\nclaims: some\n---\n# B\n\nSides? ::: 4. <!-- id: s -->\n"
    summary = _summary(tmp_path, text)
    assert "all passed" not in summary
    assert summary.endswith("0 checks; 1 error, 1 warning.")
