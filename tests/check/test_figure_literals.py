"""A number in a figure script that is a number of its card is a warning (format section 18)."""

from __future__ import annotations

from pathlib import Path

from ankigen.check import figure_literals
from tests.check.claims_support import parse

CARD = """---
claims: {level}
---
# Figures

What do the bars show? ![bars for k = 1, 2, 4, 8](figure:bars) ::: Four rows, one per k.
"""
SCRIPT = """DEVICE_COUNTS = (1, 2, 4, 16)


def draw(fig, formulas):
    ax = fig.add_subplot()
    ax.plot([0.5, 0.7], linewidth=2, fontsize=8)
"""


def _warnings(tmp_path: Path, level: str, script: str = SCRIPT) -> list[str]:
    (tmp_path / "bars.py").write_text(script, "utf-8")
    deck = parse(CARD.format(level=level))
    return [d.format() for d in figure_literals(deck, tmp_path)]


def test_each_literal_that_is_on_the_card_is_a_warning_at_the_card(tmp_path: Path) -> None:
    found = _warnings(tmp_path, "all")
    script = tmp_path / "bars.py"
    assert found == [
        f"content/deck.md:6:{column}: warning: figure bars writes the card's `{text}` as its own"
        f" {value} ({script}:1:{at}): take it from formulas (define it with 'let' in a formulas"
        " block, which a check can prove, and read it in the script as formulas[NAME]())"
        for column, text, value, at in [(39, "1", 1, 18), (42, "2", 2, 21), (45, "4", 4, 24)]
    ]


def test_style_keywords_and_numbers_not_on_the_card_are_left_alone(tmp_path: Path) -> None:
    found = _warnings(tmp_path, "all")
    assert not any("own 16" in line for line in found)  # 16 is not on the card
    assert not any("bars.py:6:" in line for line in found)  # linewidth=2, fontsize=8


def test_a_figure_that_reads_formulas_has_no_warning(tmp_path: Path) -> None:
    script = "def draw(fig, formulas):\n    counts = formulas['device_counts']()\n"
    assert _warnings(tmp_path, "all", script) == []


def test_only_level_all_judges_figures(tmp_path: Path) -> None:
    assert _warnings(tmp_path, "answers") == []


def test_keywords_of_a_formula_call_are_data(tmp_path: Path) -> None:
    script = "def draw(fig, formulas):\n    step = formulas['T_step']\n    step(k=8)\n"
    found = _warnings(tmp_path, "all", script)
    assert len(found) == 1 and "writes the card's `8` as its own 8" in found[0]
