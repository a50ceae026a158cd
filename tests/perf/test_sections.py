"""Cutting a file into sections gives the tokens of the whole file, line for line."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from ankigen.parse.markdown import content_parser
from ankigen.parse.sections import line_count, split_sections

#: Lines that open, close or look like cuts and blocks that run across blank lines.
PIECES = [
    "## Head", "# Title", "##", "\t## tab", "   ## three", "  ## two", "text", "", "", "",
    "q ::: a", "```", "```check", "~~~", "````", "```python", "`` ` ``", "$$", "x^2", "$$x$$",
    "---", "===", "- item", "  - nested", "1. one", "> quote", "> ## quoted", "    code",
    "| a | b |", "|---|---|", "<!-- id: x -->", "<!--", "-->", "<pre>", "</pre>", "<div>",
    "{{c1::a}} b", "==m== x", "***", "...", " ", "\u3000", "$$ ", "  $$", "a $$", "```` ",
    "~~~~", "   ```", "``` x", "$", " \t",
]  # fmt: skip


def _signature(token: Token, offset: int = 0) -> tuple[Any, ...]:
    shifted = [token.map[0] + offset, token.map[1] + offset] if token.map else None
    children = tuple(_signature(child, offset) for child in token.children or [])
    return (token.type, token.tag, shifted, token.content, token.info, token.markup,
            sorted(token.attrs.items()), repr(sorted(token.meta.items())), children)  # fmt: skip


def _same_tokens(text: str) -> bool:
    sections = split_sections(text)
    if sections is None:
        return True  # parsed whole: nothing to compare
    assert "".join(s.text for s in sections) == text
    parts = [
        _signature(token, section.start)
        for section in sections
        for token in content_parser().parse(section.text)
    ]
    return parts == [_signature(token) for token in content_parser().parse(text)]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=30),
    st.booleans(),
    st.booleans(),
)
def test_sections_parse_as_in_the_whole_file(lines: list[str], front: bool, end: bool) -> None:
    if front:
        lines = ["---", "deck: x", "", "# a YAML comment", "---", *lines]
    assert _same_tokens("\n".join(lines) + ("\n" if end else ""))


def test_cuts_fall_at_top_level_headings_after_a_blank_line() -> None:
    text = "# T\n\nintro\n\n## A\n\nq ::: a\n## not a cut\n\n## B\n\nq2 ::: b\n"
    sections = split_sections(text)
    assert sections is not None
    assert [(s.start, s.text.splitlines()[0]) for s in sections] == [
        (0, "# T"),
        (4, "## A"),
        (9, "## B"),
    ]


def test_no_cut_inside_fences_display_math_or_front_matter() -> None:
    text = "---\nk: 1\n\n# yaml\n---\n\n```\n\n## in code\n```\n\n$$\n\n## in math\n$$\n"
    sections = split_sections(text)
    assert sections is not None and len(sections) == 1


def test_a_fence_is_closed_only_by_a_long_enough_run_of_its_marker() -> None:
    text = "## A\n\n````\n```\n~~~~\n\n## in code\n````  \n\n## B\n\n~~~\n\n## never closed\n"
    sections = split_sections(text)
    assert sections is not None
    assert [s.text.splitlines()[0] for s in sections] == ["## A", "## B"]


def test_line_count_is_the_number_of_lines_splitlines_gives() -> None:
    for text in ("", "a", "a\n", "a\nb", "\n\n", "a\n\nb\n"):
        assert line_count(text) == len(text.splitlines()), text


def test_files_that_need_the_whole_document_are_not_cut() -> None:
    for text in (
        "## A\n\nsee [x]\n\n## B\n\n[x]: https://example.org\n",  # link reference definitions
        "## A\n\n  ```\n\n## B\n",  # an indented fence may belong to a list item
        "## A\n\n<div>\n\n## B\n",  # an HTML block
        "## A\r\n\r\n## B\r\n",  # carriage returns
        "x\n$$\n\n## B\n$$\n",  # `$$` right after prose: a block or not
    ):
        assert split_sections(text) is None, text
