"""Headings: the deck's title and the ``##`` section an item stands in.

The first ``#`` heading names the deck; every ``#`` heading ends the current
section. A ``##`` heading starts a section, named by its text and tagged with
its slug; deeper headings change neither. That every heading also closes the
open item is the walker's business (``parse.states``), not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.parse.paragraph import plain_text
from ankigen.parse.slug import slugify
from ankigen.parse.states import Section


@dataclass(frozen=True)
class AfterHeading:
    """The deck title and the section in force after a heading."""

    title: str | None
    section: Section


def read_heading(
    open_token: Token, inline: Token, title: str | None, section: Section
) -> AfterHeading:
    """What the heading ``open_token``/``inline`` makes of the current ``title`` and ``section``."""
    text = plain_text(inline.children or [])
    if open_token.tag == "h1":
        # A later `#` heading ends the current section; only the first names the deck.
        return AfterHeading(title if title is not None else text, Section())
    if open_token.tag == "h2":
        return AfterHeading(title, Section(text, slugify(text) or None))
    return AfterHeading(title, section)
