"""The §7.1 context rule: an emoji or symbol after a question's ``?`` keeps it a question."""

from __future__ import annotations

import pytest

from ankigen.parse.context import is_question


@pytest.mark.parametrize(
    "source",
    [
        "Why does it stall?",
        "Why does it stall? 🤔",
        "Why does it stall?🤔",
        "Is it safe? 👍🏽",  # a skin tone (Sk)
        "Who pays? 👨‍👩‍👧",  # joined by zero-width joiners (Cf)
        "Ready? ❤️",  # a variation selector (Mn)
        "Done? ✅",
        "*Really?* ✓",
        '"Is it?" →',
    ],
)
def test_a_question_mark_before_trailing_symbols_asks(source: str) -> None:
    assert is_question(source)


@pytest.mark.parametrize("source", ["Adding GPUs always helps.", "Stalls 🤔", "What? No, 42."])
def test_a_statement_does_not_ask(source: str) -> None:
    assert not is_question(source)
