"""Properties: the number finder's fast paths (its scan from the first digit, the first
letter test of number words, the slash before a named number) find exactly the numbers,
at the same places, as the full scans they skip."""

from __future__ import annotations

import re
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.parse import claim_numbers
from ankigen.parse.claim_numbers import find_numbers
from ankigen.parse.claims import _Reader

_PIECES = st.sampled_from(
    ["1", "42", "3.5", "10,000", "1e-3", "1/2", "50%", "3x", "7\u00d7", "½", "٣", "GPT-3",
     "a", "x", "_", ".", "-", "\u2212", " ", "see https://e.org/v2 ", "http", "http://9",
     "(case 12)", "four", "half", "a third", "10²", "M/M/1", " ms", "\uff11\uff12", "\u017fix",
     "f\u0131ve", "S\u0130X", "tw\u0130ce"]
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


#: Number words, and letters that fold to the number words' letters (long s, Kelvin sign, dotted I).
_WORDISH = st.lists(
    st.sampled_from(
        ["one", "ONE", "Twice", "a", "an", "third", "thirds", "half", "ninety", "seventeen",
         "\u017fix", "\u017feven", "\u212aone", "İ", "bone", "zero", "-", " ", "\n", "é", "3", "_"]
    ),
    max_size=8,
).map("".join)  # fmt: skip


_FIRST_LETTER_TEST = f"(?=[{claim_numbers._WORD_STARTS}])"
assert _FIRST_LETTER_TEST in claim_numbers._WORD.pattern
_WORD_UNFILTERED = re.compile(
    claim_numbers._WORD.pattern.replace(_FIRST_LETTER_TEST, "", 1), re.IGNORECASE
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_WORDISH, st.text(max_size=30)))
def test_the_number_word_pattern_finds_what_it_finds_without_its_first_letter_test(
    text: str,
) -> None:
    found = [(m.span(), m.groupdict()) for m in claim_numbers._WORD.finditer(text)]
    assert found == [(m.span(), m.groupdict()) for m in _WORD_UNFILTERED.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["M", "/", "1", "k", "é", "_", " ", "2"]), max_size=10).map("".join)
)
def test_a_number_after_a_name_is_found_as_by_searching_every_prefix(text: str) -> None:
    for start in range(len(text) + 1):
        slow = claim_numbers._NAMED.search(text, 0, start) is not None
        assert claim_numbers._after_name(text, start) == slow


def test_a_number_word_with_a_letter_ignorecase_folds_to_ascii_is_one() -> None:
    """Six with a long s, five with a dotless i, SIX with a dotted capital I are number words
    to the pattern (and to a learner): found on a card, worth their number when quoted."""
    for word, value in (("\u017fix", 6), ("f\u0131ve", 5), ("S\u0130X", 6), ("tw\u0130ce", 2)):
        found = list(find_numbers(f"It took {word} weeks.", words=True))
        assert [f.text for f in found] == [word]
        written = claim_numbers.read_number(word)
        assert written is not None and written.value == value


def test_a_minus_sign_written_right_before_a_number_is_part_of_it() -> None:
    text = "now -128 (\u22121.3\u00d7) but batch-32, 3-4, 1e-3, x - 4, 2024-01-02"
    found = [(f.text, f.start) for f in find_numbers(text, words=False)]
    assert found == [
        ("-128", 4), ("\u22121.3\u00d7", 10), ("32", 27), ("3", 31), ("4", 33),
        ("1e-3", 36), ("4", 46), ("2024", 49), ("01", 54), ("02", 57),
    ]  # fmt: skip
    assert [claim_numbers.read_number(t) for t in ("-128", "\u2212\u00bd")] == [
        claim_numbers.Written(Fraction(-128), "", ""),
        claim_numbers.Written(Fraction(-1, 2), "", ""),
    ]
