"""Typos of authors coming from other tools, through the CLI (format section 13.1).

A deck migrated from Anki, Obsidian or a Q/A notes file keeps habits that
make no card here. Each is a warning at its line and column, worded as
golden output, naming what was probably meant; ``--strict`` fails on them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from tests.conftest import compare_golden

DECK = """\
# Probability

What is a trial? ::: One run of an experiment.

What is a sample space?:: The set of all outcomes.

Sample space::The set of all outcomes.

What is an event?
::A subset of the sample space.

What are disjoint events? : : : Events with no outcome in common.

What is a complement? :: : The outcomes not in the event.

Q: What is a probability measure?
A: A function from events to probabilities.

What is a random variable?
?
A function from outcomes to numbers.
"""

GOLDEN = Path(__file__).parent / "fixtures" / "migration-near-misses.golden"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "prob.md").write_text(DECK, "utf-8")
    return tmp_path


def diagnostic_lines(output: str) -> str:
    """The diagnostics of a text run, without the closing summary line."""
    return "".join(f"{line}\n" for line in output.splitlines() if line.startswith("content/"))


def test_each_habit_is_a_warning_naming_the_fix(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", "content"])
    assert result.exit_code == 0, result.output
    compare_golden(diagnostic_lines(result.output), GOLDEN)


def test_strict_fails_on_them(project: Path) -> None:
    result = CliRunner().invoke(main, ["check", "content", "--strict"])
    assert result.exit_code == 1
    assert diagnostic_lines(result.output) == GOLDEN.read_text("utf-8").replace("warning: ", "")
