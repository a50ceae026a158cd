"""Where each card stands in its file: the ``##`` section and the callout around its line.

The preview's table of contents lists sections and callouts, and its entries
are grouped by section. The parse stage keeps neither on an item (a card
needs only their tags and context line), so the page reads them again from
the file's top-level blocks, with the parser that read the items.

The file is read section by section (``parse.sections``: each section parses
alone as it does in the file), and each section's outline is kept by its text:
after an edit, ``ankigen watch`` parses only the sections that changed.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.parse.callout import callout_kind, callout_title
from ankigen.parse.markdown import content_parser
from ankigen.parse.paragraph import plain_text
from ankigen.parse.sections import split_sections

#: Section outlines kept by their text: a 10,000-item file has about 200 sections.
_KEPT_SECTIONS = 4096


@dataclass(frozen=True)
class Part:
    """A ``##`` section (``callout`` None) or a callout in one: its name and first line."""

    section: str
    callout: str | None
    line: int


@dataclass(frozen=True)
class Outline:
    """The sections and callouts of a file, in order, and the lines they span."""

    #: Sections in order: (first line, name); lines before the first are in "".
    sections: tuple[tuple[int, str], ...]
    #: Callouts in order: (first line, last line, title).
    callouts: tuple[tuple[int, int, str], ...]

    def place(self, line: int) -> tuple[str, str | None]:
        """The section and callout (None: none) that hold the 1-based ``line``."""
        index = bisect.bisect_right(self._section_starts, line) - 1
        section = self.sections[index][1] if index >= 0 else ""
        # Callouts are top-level blocks: in order, and none inside another.
        at = bisect.bisect_right(self._callout_starts, line) - 1
        inside = at >= 0 and line <= self.callouts[at][1]
        return section, self.callouts[at][2] if inside else None

    @functools.cached_property
    def _section_starts(self) -> list[int]:
        return [start for start, _ in self.sections]

    @functools.cached_property
    def _callout_starts(self) -> list[int]:
        return [first for first, _, _ in self.callouts]

    def shifted(self, lines: int) -> Outline:
        """The same outline, ``lines`` further down the file."""
        return Outline(
            tuple((start + lines, name) for start, name in self.sections),
            tuple((first + lines, last + lines, title) for first, last, title in self.callouts),
        )


def outline(text: str, by_section: bool = True) -> Outline:
    """The file's ``##`` sections (a ``#`` heading ends one) and its callouts.

    ``by_section=False``: the file parsed whole (the slow path the tests compare with).
    """
    sections = split_sections(text) if by_section else None
    if sections is None:  # a file that must be parsed whole (``parse.sections``)
        return _outline_of(text)
    parts = [_outline_of(section.text).shifted(section.start) for section in sections]
    return Outline(
        tuple(entry for part in parts for entry in part.sections),
        tuple(entry for part in parts for entry in part.callouts),
    )


@functools.lru_cache(maxsize=_KEPT_SECTIONS)
def _outline_of(text: str) -> Outline:
    """The outline of a text parsed alone, its first line numbered 1."""
    tokens = content_parser().parse(text)
    sections: list[tuple[int, str]] = []
    callouts: list[tuple[int, int, str]] = []
    for index, token in enumerate(tokens):
        if token.level != 0 or token.map is None:
            continue
        first, end = token.map[0] + 1, token.map[1]
        if token.type == "heading_open" and token.tag in ("h1", "h2"):
            inline = tokens[index + 1]
            name = plain_text(inline.children or []) if token.tag == "h2" else ""
            sections.append((first, name))
        elif token.type == "blockquote_open":
            block = _block(tokens, index)
            kind = callout_kind(block)
            if kind is not None:
                title = callout_title(block[2].content) or kind.capitalize()
                callouts.append((first, end, title))
    return Outline(tuple(sections), tuple(callouts))


def _block(tokens: list[Token], start: int) -> list[Token]:
    """The tokens of the top-level block opening at ``start``, up to its closing token."""
    for end in range(start + 1, len(tokens)):
        if tokens[end].level == 0 and tokens[end].type == "blockquote_close":
            return tokens[start : end + 1]
    return tokens[start:]
