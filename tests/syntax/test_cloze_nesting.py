"""Unclosed clozes are found as Anki's parser nests them: each ``}}`` closes the innermost."""

from __future__ import annotations

import pytest

from ankigen.syntax import cloze


@pytest.mark.parametrize(
    ("text", "unclosed_at"),
    [
        ("{{c2::a {{c1::b}} c", [0]),  # Anki drops c2, and the c1 inside it, from the card
        ("{{c1::a {{c2::b}} c}}", []),
        ("{{c1::x}} {{c2::y", [10]),
        ("a }} {{c1::x}}", []),  # a }} outside any cloze is text
        ("{{c1::a}} }} {{c2::b", [13]),
        ("{{c1::a {{c2::b {{c3::c}}", [0, 8]),
    ],
)
def test_an_opener_no_closer_reaches_is_unclosed(text: str, unclosed_at: list[int]) -> None:
    problems = cloze.text_problems(text, text)
    assert [p.start for p in problems if p.code == cloze.UNCLOSED] == unclosed_at


@pytest.mark.parametrize(
    ("text", "hints"),
    [
        ("k = {{c1::2::for 4 GPUs}}", ["for 4 GPUs"]),
        ("{{c1::a}} {{c2::b::h::i}}", ["h::i"]),  # the first '::' starts the hint
        ("{{c1::a {{c2::b::inner}}::outer}}", ["inner", "outer"]),  # innermost first
        ("{{c1::\\frac{a}{b}::{2}}}", ["{2"]),  # the first '}}' ends the cloze, as in Anki
        ("no cloze::here", []),
    ],
)
def test_hints_are_read_as_markers_are_stripped(text: str, hints: list[str]) -> None:
    assert cloze.hints(text) == hints
