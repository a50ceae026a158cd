"""A rebuild with nothing changed keeps the deck; any changed input rebuilds it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

DECK = """# Up to date

What does the figure show? ::: ![bars](figure:bars) Bars.

A picture ::: ![dot](dot.svg)

How many? ::: Exactly $k = 8$.
"""
FIGURE = "def draw(fig, formulas):\n    fig.add_subplot().bar([1, 2], [{}, 2])\n"
DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle r="{}"/></svg>'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "content" / "deck.md").write_text(DECK, "utf-8")
    (tmp_path / "content" / "dot.svg").write_text(DOT.format(2), "utf-8")
    (tmp_path / "figures" / "bars.py").write_text(FIGURE.format(1), "utf-8")
    assert build().exit_code == 0
    return tmp_path


def build(*args: str) -> Result:
    return CliRunner().invoke(main, ["build", *args])


def rebuilt(result: Result) -> bool:
    assert result.exit_code == 0, result.output
    return "wrote " in result.stdout


def test_nothing_changed_keeps_the_deck_and_its_warnings(project: Path) -> None:
    deck = project / "build" / "deck.apkg"
    before = (deck.read_bytes(), deck.stat().st_mtime_ns)
    again = build()
    assert not rebuilt(again)
    assert "1 deck already up to date" in again.stdout
    assert "Built 1 deck: 3 notes, 3 cards, 3 media" in again.stdout
    assert "content/deck.md:7:23: warning: unverified claim $k = 8$" in again.stderr
    assert (deck.read_bytes(), deck.stat().st_mtime_ns) == before


@pytest.mark.parametrize("change", ["content", "figure", "image", "deck", "option"])
def test_a_changed_input_rebuilds(project: Path, change: str) -> None:
    args: list[str] = []
    if change == "content":
        path = project / "content" / "deck.md"
        path.write_text(DECK.replace("Bars.", "Two bars."), "utf-8")
    elif change == "figure":
        (project / "figures" / "bars.py").write_text(FIGURE.format(3), "utf-8")
    elif change == "image":
        (project / "content" / "dot.svg").write_text(DOT.format(1), "utf-8")
    elif change == "deck":
        (project / "build" / "deck.apkg").write_bytes(b"not a deck")
    else:
        args = ["--math", "mathjax"]
    assert rebuilt(build(*args))
    assert not rebuilt(build(*args))  # and then it is up to date again
