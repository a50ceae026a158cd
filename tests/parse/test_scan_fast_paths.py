"""Properties: the cheap pre-filters of the near-miss scan and of the separator
and cloze readers skip only text in which the full scan finds nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from ankigen.parse import near_miss
from ankigen.parse.markdown import content_parser
from ankigen.syntax import cloze, separator

_PIECES = st.sampled_from(
    ["q", "a", " ", "\n", ":::", "::", ":", "::::", "?", "==", "=", "{{c1::", "{c1::", "{{ c1::",
     "{{c1:", "}}", "{", "}", "$x$", "$a::b$", "$\\frac{1}{2}$", "`c::d`", "*e*", "<!-- id: x -->",
     "\\:", "2", "{{C1::", "{{c::", "{{"]
)  # fmt: skip
_PARAGRAPHS = st.lists(_PIECES, min_size=1, max_size=14).map("".join)


def _inline_blocks(text: str) -> list[tuple[Sequence[Token], int]]:
    tokens = content_parser().parse(text)
    return [(t.children or [], t.map[0] + 1) for t in tokens if t.type == "inline" and t.map]


@settings(max_examples=400, deadline=None)
@given(_PARAGRAPHS)
def test_the_near_miss_prefilter_skips_only_paragraphs_without_findings(
    text: str,
) -> None:
    lines = text.splitlines()
    for children, first_line in _inline_blocks(text):
        fast = near_miss.near_misses(children, first_line, lines)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(near_miss, "_may_hold_near_miss", lambda token: True)
            full = near_miss.near_misses(children, first_line, lines)
        assert fast == full


_SEPARATOR = re.compile(r"(?:(?<=\s)|^):::(?=\s|$)")
_SOURCE_SEPARATOR = re.compile(r"(?:(?<=\s)|^):::(?=\s|$)", re.MULTILINE)


@settings(max_examples=400, deadline=None)
@given(_PARAGRAPHS)
def test_the_separator_reader_finds_what_its_patterns_find(text: str) -> None:
    assert [m.span() for m in separator.matches(text)] == [
        m.span() for m in _SEPARATOR.finditer(text)
    ]
    assert separator.count(text) == len(_SEPARATOR.findall(text))
    assert separator.in_source(text) == [m.span() for m in _SOURCE_SEPARATOR.finditer(text)]


_CLOZE = re.compile(r"\{\{c(\d*)::(.*?)\}\}", re.IGNORECASE | re.DOTALL)
_OPENER = re.compile(r"\{\{c(\d*)::", re.IGNORECASE)


@settings(max_examples=400, deadline=None)
@given(_PARAGRAPHS)
def test_the_cloze_reader_finds_what_its_patterns_find(text: str) -> None:
    assert cloze.spans(text) == [m.span() for m in _CLOZE.finditer(text)]
    assert cloze.has_cloze(text) == (_OPENER.search(text) is not None)
