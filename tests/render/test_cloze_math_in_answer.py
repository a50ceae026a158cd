"""A cloze inside a formula of a reveal answer or an Extra: one error, the parser's.

Image mode used to add a second error at the same line in the drawing code's
words ("cloze markers must be split off with cloze_variants() first"), which
tells an author nothing; both math modes now report exactly the same.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main

FIXTURE = Path(__file__).parent / "fixtures" / "cloze-math-in-answer"

EXPECTED = [
    "content/deck.md:5:28: cloze syntax after ':::' is not a cloze: put the cloze before ':::'"
    " (the text after it is the Extra field)",
    "content/deck.md:7:40: cloze syntax in the Extra (after ':::') is not a cloze;"
    " move it before ':::'",
]


@pytest.mark.parametrize("math", ["image", "mathjax"])
def test_only_the_parser_reports_the_misplaced_cloze(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, math: str
) -> None:
    shutil.copytree(FIXTURE, tmp_path / "content")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "content", "--out", "build", "--math", math])
    assert result.exit_code == 1, result.output
    errors = [
        line
        for line in result.output.splitlines()
        if "warning" not in line and "unverified claim" not in line  # the hint line too
    ]
    assert errors[:-1] == EXPECTED
    assert errors[-1] == "Build failed: 2 errors; no deck was written."
    assert not (tmp_path / "build" / "deck.apkg").exists()
