"""Properties: the regex-driven cloze tokenizer reads a field exactly as the old
character-by-character scan did (the scan is kept here as the oracle), and the
card count of a field without nested clozes, read from its markers alone, is the
count of its parsed nodes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.package.anki_cards import _tokens, _tree_cloze_ordinals, cloze_ordinals

_OPEN = re.compile(r"\{\{c([0-9]+)::")


def _tokens_by_character(text: str) -> list[int | str | None]:
    """The tokenizer as it was before the fast path: one character at a time."""
    tokens: list[int | str | None] = []
    position = 0
    run_start = 0
    while position < len(text):
        opening = _OPEN.match(text, position)
        closing = text.startswith("}}", position)
        if (opening and int(opening[1]) <= 0xFFFF) or closing:
            if run_start < position:
                tokens.append(text[run_start:position])
            if opening and int(opening[1]) <= 0xFFFF:
                tokens.append(int(opening[1]))
                position = opening.end()
            else:
                tokens.append(None)
                position += 2
            run_start = position
        else:
            position += 1
    if run_start < len(text):
        tokens.append(text[run_start:])
    return tokens


#: Pieces that make markers, near-markers and large numbers likely.
_PIECES = st.sampled_from(
    ["{{c", "{{c1::", "{{c2::", "{{c0::", "{{c65535::", "{{c65536::", "{{c99999999::", "}}",
     "}", "{", "::", ":", "c", "1", "12", "x", " ", "\n", "$", "\\(", "é"]
)  # fmt: skip
_FIELDS = st.one_of(st.text(max_size=40), st.lists(_PIECES, max_size=30).map("".join))


@settings(max_examples=400, deadline=None)
@given(_FIELDS)
def test_the_fast_tokenizer_agrees_with_the_character_scan(text: str) -> None:
    assert _tokens(text) == _tokens_by_character(text)


def test_a_number_too_large_for_anki_is_text_and_a_later_closing_still_counts() -> None:
    assert _tokens("a{{c65536::b}}c") == ["a{{c65536::b", None, "c"]
    assert cloze_ordinals("{{c70000::x}} {{c2::y}}") == (1,)


@settings(max_examples=400, deadline=None)
@given(_FIELDS)
def test_the_flat_cloze_count_agrees_with_the_parsed_nodes(text: str) -> None:
    assert cloze_ordinals(text) == _tree_cloze_ordinals(text)


def test_nested_open_and_stray_clozes_count_as_anki_counts_them() -> None:
    assert cloze_ordinals("{{c2::a}} }} {{c1::b::hint}} {{c0::z}} {{c3::left open") == (0, 1)
    assert cloze_ordinals("{{c1::a {{c2::b}} c}}") == (0, 1)  # nested: parsed whole
    assert cloze_ordinals("{{c1::a {{c2::b}}") == ()  # the open c1 vanishes, c2 with it
