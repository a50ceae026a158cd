"""Property: changing a number on a card of a checked deck to a new one fails --strict."""

from __future__ import annotations

from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ankigen.model import Claim
from ankigen.parse.claims import number_value
from tests.check.claims_support import parse, strict_errors, with_claim_replaced

SOURCE = (Path(__file__).parent / "other_author" / "content" / "circuits.md").read_text("utf-8")
DECK = parse(SOURCE)
#: Every number standing on its own in an answer, cloze text or Extra, with its item.
NUMBERS = [
    (item.line, claim, frozenset(c.text for c in item.claims))
    for item in DECK.items
    for claim in item.claims
    if claim.required and not claim.formula
]


def test_the_fixture_checks_clean() -> None:
    assert strict_errors(SOURCE) == []
    assert len(NUMBERS) >= 15


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(NUMBERS),
    st.one_of(
        st.integers(min_value=0, max_value=10**6).map(str),
        st.decimals(min_value=0, max_value=1000, places=2).map(str),
        st.sampled_from(["½", "⅓", "25%", "7\u00d7", "1.5x", "2e-3", "12,500"]),
    ),
)
def test_changing_a_number_on_a_card_fails_strict(
    target: tuple[int, Claim, frozenset[str]], replacement: str
) -> None:
    item_line, claim, shown = target
    # The item already shows it (as written, or its value): no change a check can see.
    assume(replacement not in shown)
    assume(number_value(replacement) not in {number_value(text) for text in shown})
    text = with_claim_replaced(SOURCE, claim, replacement)
    assert strict_errors(text, only_line=item_line), (claim, replacement)
