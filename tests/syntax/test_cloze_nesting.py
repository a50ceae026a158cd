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
