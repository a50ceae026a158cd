"""Property: the claim reader's pre-filters (first digit, ``http``) find exactly the
claims, with the same columns, as a full scan of every text token."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.parse import claims
from ankigen.parse.claims import _STANDALONE, _URL, _Reader


class _FullScan(_Reader):
    """The reader as it was before the pre-filters: every token scanned from its start."""

    def text(self, content: str, line: int, *, shown_as_claim: bool) -> None:
        readable = _URL.sub(lambda m: " " * len(m.group()), content)
        start = self.find(line, content)
        for match in _STANDALONE.finditer(readable):
            found = start + match.start() if start is not None else None
            column = self.find(line, match.group()) if found is None else found
            self.add(match.group(), False, line, column, required=shown_as_claim)


_PIECES = st.sampled_from(
    ["1", "42", "3.5", "10,000", "1e-3", "1/2", "50%", "3x", "7\u00d7", "½", "٣", "GPT-3",
     "a", "x", "_", ".", "-", " ", "see https://e.org/v2 ", "http", "http://9", "(case 12)"]
)  # fmt: skip
_TEXTS = st.one_of(st.text(max_size=30), st.lists(_PIECES, max_size=10).map("".join))


@settings(max_examples=500, deadline=None)
@given(st.lists(_TEXTS, min_size=1, max_size=3), st.booleans())
def test_the_prefiltered_reader_finds_what_a_full_scan_finds(
    texts: list[str], shown_as_claim: bool
) -> None:
    line = " ".join(texts)  # the source line the tokens come from (columns are found in it)
    fast, full = _Reader([line]), _FullScan([line])
    for text in texts:
        fast.text(text, 1, shown_as_claim=shown_as_claim)
        full.text(text, 1, shown_as_claim=shown_as_claim)
    assert fast.claims == full.claims
    assert fast.cursor == full.cursor


def test_a_text_without_digits_moves_the_cursor_past_it_all_the_same() -> None:
    reader = _Reader(["no number here, then 7"])
    reader.text("no number here, ", 1, shown_as_claim=True)
    reader.text("then 7", 1, shown_as_claim=True)
    assert [(c.text, c.column) for c in reader.claims] == [("7", 22)]
    assert claims._NUMBER_START.search("no number") is None
