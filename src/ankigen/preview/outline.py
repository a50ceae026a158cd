"""Where each card stands in its file: the ``##`` section and the callout around its line.

The preview's table of contents lists sections and callouts, and its entries
are grouped by section. The parse stage keeps neither on an item (a card
needs only their tags and context line), so the page reads them again from
the file's top-level blocks, with the parser that read the items.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.parse.callout import callout_kind, callout_title
from ankigen.parse.markdown import content_parser
from ankigen.parse.paragraph import plain_text


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
        index = bisect.bisect_right([start for start, _ in self.sections], line) - 1
        section = self.sections[index][1] if index >= 0 else ""
        callout = next((t for first, last, t in self.callouts if first <= line <= last), None)
        return section, callout


def outline(text: str) -> Outline:
    """The file's ``##`` sections (a ``#`` heading ends one) and its callouts."""
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
