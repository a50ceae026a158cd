"""A statement the deck's time budget stops is an AG661 error, its message saying so."""

from __future__ import annotations

from ankigen.check import check_deck
from ankigen.model import CodeBlock
from tests.check.check_support import make_deck, make_item


def test_a_spent_deck_budget_leaves_each_statement_not_checked_as_ag661() -> None:
    block = CodeBlock("check", "assert sin(1)**2 + cos(1)**2 == 1\n", 10)
    # A budget already spent when the first statement starts: no clock race.
    deck = make_deck([make_item(8, "", [block])], formulas=())
    report = check_deck(deck, deck_time_limit=-1.0)
    [found] = [d for d in report.diagnostics if d.is_error]
    assert (found.line, found.code) == (10, "AG661")
    assert found.message.startswith("not checked: the checks of this file took the whole")
