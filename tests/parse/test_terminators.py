"""Property: the parser's narrowed set of text-rule stops gives exactly the tokens of
markdown-it's default set, on generated markdown and on every markdown fixture."""

from __future__ import annotations

import string
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.parser_inline import _default_terminator_re

from ankigen.parse.markdown import content_parser

TESTS = Path(__file__).parent.parent

_PIECES = st.one_of(
    st.sampled_from([*string.punctuation, " ", "\n", "\n\n", "a", "b1", "é", "§", "w"]),
    st.sampled_from(
        ["[a](b)", "[a][r]", "\n\n[r]: /u", "![i](x.png)", "<http://e.org>", "<b>", "<!-- c -->",
         "&amp;", "&#35;", "`c`", "``c`d``", "*e*", "__s__", "~~t~~", "==m==", "$x$", "$$y$$",
         "\\(", "\\[", "{{c1::a::h}}", "[sound:x]", "| a | b |\n|---|---|\n| 1 | 2 |", "# h",
         "- l", "> q", "::: ", "a:::b", "1. n", "    code", "```\nf\n```", "www.e.org", "a@b.c"]
    ),
)  # fmt: skip
_MARKDOWN = st.lists(_PIECES, min_size=1, max_size=25).map("".join)


def _tokens(markdown: str, *, default_stops: bool) -> list[MutableMapping[str, Any]]:
    parser: MarkdownIt = content_parser()
    narrowed = parser.inline.terminator_re
    if default_stops:
        parser.inline.terminator_re = _default_terminator_re()
    try:
        return [token.as_dict() for token in parser.parse(markdown)]
    finally:
        parser.inline.terminator_re = narrowed


def test_the_parser_stops_at_fewer_characters_than_the_default() -> None:
    assert content_parser().inline.terminator_re.pattern != _default_terminator_re().pattern


@settings(max_examples=400, deadline=None)
@given(_MARKDOWN)
def test_generated_markdown_gives_the_default_tokens(markdown: str) -> None:
    assert _tokens(markdown, default_stops=False) == _tokens(markdown, default_stops=True)


def _fixtures() -> Iterator[Path]:
    yield from sorted(TESTS.rglob("*.md"))
    yield from sorted((TESTS.parent / "content").rglob("*.md"))


@pytest.mark.parametrize("path", list(_fixtures()), ids=lambda p: str(p.relative_to(TESTS.parent)))
def test_every_markdown_fixture_gives_the_default_tokens(path: Path) -> None:
    markdown = path.read_text("utf-8", errors="replace")
    assert _tokens(markdown, default_stops=False) == _tokens(markdown, default_stops=True)
