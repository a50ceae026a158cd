"""Helpers for the checker tests: decks built directly from the data model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ankigen.check import DEFAULT_TIME_LIMIT, check_deck
from ankigen.model import CheckReport, CodeBlock, Deck, Fragment, Item, ItemKind, MathMode

FILE = "content/x.md"
#: The formulas block of format section 9, at line 1000 of the fake file.
FORMULAS_LINE = 1000
FORMULAS = """\
let S = T_compute / (T_compute/k + T_comm)
let T_comm_ring = alpha*log(k, 2) + (k - 1)/k * M/beta
"""


def make_item(line: int, answer: str = "", checks: Sequence[CodeBlock] = ()) -> Item:
    """A reveal item at ``line`` with the given answer and check blocks."""
    return Item(
        kind=ItemKind.REVEAL,
        line=line,
        front=Fragment("q"),
        back=Fragment(answer or "a"),
        guid=f"guid{line}",
        note_id=None,
        tags=(),
        subdeck=None,
        checks=tuple(checks),
    )


def make_deck(items: Sequence[Item], formulas: Sequence[CodeBlock] | None = None) -> Deck:
    """A deck of ``items``; the formulas block of section 9 unless given."""
    if formulas is None:
        formulas = (CodeBlock("formulas", FORMULAS, FORMULAS_LINE),)
    return Deck(
        path=Path(FILE),
        display_path=FILE,
        root=Path("content"),
        name="x",
        key="x",
        math=MathMode.IMAGE,
        items=tuple(items),
        formulas=tuple(formulas),
    )


def check_text(
    text: str, *, first_line: int = 1, time_limit: float = DEFAULT_TIME_LIMIT
) -> CheckReport:
    """Check one block of statements, its first line at ``first_line``."""
    block = CodeBlock("check", text, first_line)
    deck = make_deck([make_item(max(first_line - 2, 1), "", [block])])
    return check_deck(deck, time_limit=time_limit)


def messages(report: CheckReport) -> list[str]:
    """The report's diagnostics as ``LINE: message``, without the file."""
    return [f"{d.line}: {d.message}" for d in report.diagnostics]
