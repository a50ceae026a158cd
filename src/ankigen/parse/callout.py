"""Callouts: a quote whose first line is ``[!recall]``, ``[!formula]`` or ``[!note]``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

from ankigen.parse import token_meta
from ankigen.parse.paragraph import BREAKS, Paragraph
from ankigen.syntax import separator

#: The kinds of callout the format knows (section 5), in the order it names them.
KINDS = ("recall", "formula", "note")
_MARKER = re.compile(r"^\[!(" + "|".join(KINDS) + r")\][ \t]*(.*)$", re.IGNORECASE)
#: A marker of any kind, as GitHub and Obsidian write them (``[!warning]``, ``[!tip]``).
_ANY_MARKER = re.compile(r"^\[!([A-Za-z][\w-]*)\]")


def callout_kind(block: list[Token]) -> str | None:
    """The kind of a blockquote block that is a callout (lower case), else None."""
    first_line = _first_line(block)
    match = _MARKER.match(first_line.strip()) if first_line is not None else None
    return match.group(1).lower() if match else None


def unknown_kind(block: Sequence[Token]) -> str | None:
    """The kind of a blockquote block marked as a callout the format does not know, else None.

    ``> [!warning]`` is a GitHub alert but no callout here: the quote is plain.
    """
    first_line = _first_line(block)
    match = _ANY_MARKER.match(first_line.strip()) if first_line is not None else None
    if match is None or match.group(1).lower() in KINDS:
        return None
    return match.group(1)


def _first_line(block: Sequence[Token]) -> str | None:
    """The first source line of a blockquote's first paragraph, if it opens with one."""
    if len(block) < 4 or block[1].type != "paragraph_open":
        return None
    return block[2].content.split("\n", 1)[0]


def callout_title(source: str) -> str | None:
    """The title written after a callout's ``[!kind]`` marker, if any."""
    match = _MARKER.match(source.split("\n", 1)[0].strip())
    return (match.group(2).strip() or None) if match else None


def after_marker_line(marker: Paragraph) -> Paragraph:
    """The rest of a callout's first paragraph, after its marker line."""
    for index, child in enumerate(marker.children):
        if child.type in BREAKS:
            rest = marker.children[index + 1 :]
            source = marker.source.split("\n", 1)[1] if "\n" in marker.source else ""
            stray = tuple(n for n in marker.stray_dollar_lines if n > marker.line)
            return Paragraph(rest, marker.line + 1, marker.end_line, source, stray)
    return Paragraph((), marker.end_line, marker.end_line, "")


def marker_has_separator(marker: Paragraph, rest: Paragraph) -> bool:
    """True when the marker line itself holds ``:::`` (an item cannot start there)."""
    on_marker_line = marker.children[: len(marker.children) - len(rest.children)]
    return any(
        c.type == "text" and any(separator.matches(c.content, token_meta.escaped_colons(c)))
        for c in on_marker_line
    )
