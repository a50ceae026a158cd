"""The checker's lexer reads braces with TeX's one brace scanner (``ankigen.syntax.tex``)."""

from __future__ import annotations

import pytest

from ankigen.check._errors import StatementSyntaxError
from ankigen.check._tex_lexer import tokenize_tex


def _texts(tex: str) -> list[str]:
    return [token.text for token in tokenize_tex(tex, 1)]


def test_a_label_ending_in_a_line_break_closes_at_its_brace() -> None:
    """Once, ``\\\\}`` was read as an escaped brace, and the label as never closed."""
    assert _texts(r"x + \text{a\\} 1") == ["x", "+", "1", ""]


def test_escaped_braces_in_a_label_stay_inside_it() -> None:
    assert _texts(r"x\text{ \{a\} } y") == ["x", "y", ""]


def test_an_unclosed_label_is_still_an_error_at_its_brace() -> None:
    with pytest.raises(StatementSyntaxError) as raised:
        tokenize_tex(r"x\text{a\}", 1)
    assert raised.value.column == 7  # the column of its "{"


def test_a_starred_command_is_the_command_then_an_operator() -> None:
    assert _texts(r"\alpha*2") == ["alpha", "*", "2", ""]
