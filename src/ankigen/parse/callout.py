"""Callouts: a quote whose first line is ``[!recall]``, ``[!formula]`` or ``[!note]``."""

from __future__ import annotations

import re

from markdown_it.token import Token

from ankigen.parse.paragraph import BREAKS, Paragraph
from ankigen.syntax import separator

_MARKER = re.compile(r"^\[!(recall|formula|note)\][ \t]*(.*)$", re.IGNORECASE)


def callout_kind(block: list[Token]) -> str | None:
    """The kind of a blockquote block that is a callout (lower case), else None."""
    if len(block) < 4 or block[1].type != "paragraph_open":
        return None
    first_line = block[2].content.split("\n", 1)[0]
    match = _MARKER.match(first_line.strip())
    return match.group(1).lower() if match else None


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
    return any(c.type == "text" and any(separator.matches(c.content)) for c in on_marker_line)
