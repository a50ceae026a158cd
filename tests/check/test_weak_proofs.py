"""Nine false statements proved weakly (issue 22's "weak proofs"): each fails ``--strict``.

``weak_proofs/mm1.md`` holds one item per kind: an ``\\approx`` looser than its
written digits, a ``within`` over 10%, a circular ``where`` (as a name and as
a fraction), text inside a formula, relations proved at one point of the
check's choosing, and a quote of a formula the card writes otherwise.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.check.claims_support import parse, strict_errors

SOURCE = (Path(__file__).parent / "weak_proofs" / "mm1.md").read_text("utf-8")
ITEMS = [item.line for item in parse(SOURCE).items]


def test_the_deck_has_nine_false_statements() -> None:
    assert len(ITEMS) == 9


@pytest.mark.parametrize("line", ITEMS)
def test_each_weak_proof_fails_strict(line: int) -> None:
    assert strict_errors(SOURCE, only_line=line), f"the item at line {line} passes --strict"
