"""Property: the number finder's pre-filter (the first digit) finds exactly the numbers,
at the same places, as a full scan of the text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.parse.claim_numbers import find_numbers
from ankigen.parse.claims import _Reader

_PIECES = st.sampled_from(
    ["1", "42", "3.5", "10,000", "1e-3", "1/2", "50%", "3x", "7\u00d7", "½", "٣", "GPT-3",
     "a", "x", "_", ".", "-", " ", "see https://e.org/v2 ", "http", "http://9", "(case 12)",
     "four", "half", "a third", "10²", "M/M/1", " ms", "\uff11\uff12"]
)  # fmt: skip
_TEXTS = st.one_of(st.text(max_size=30), st.lists(_PIECES, max_size=10).map("".join))


@settings(max_examples=500, deadline=None)
@given(_TEXTS, st.booleans())
def test_the_prefiltered_finder_finds_what_a_full_scan_finds(text: str, words: bool) -> None:
    fast = list(find_numbers(text, words=words))
    full = list(find_numbers(text, words=words, full_scan=True))
    assert fast == full


def test_a_text_without_digits_moves_the_cursor_past_it_all_the_same() -> None:
    reader = _Reader(["no number here, then 7"])
    reader.text("no number here, ", 1, answer=True)
    reader.text("then 7", 1, answer=True)
    assert [(c.text, c.column) for c in reader.claims] == [("7", 22)]
