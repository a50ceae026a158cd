"""Headings: the deck's title and the ``##`` section an item stands in.

The first ``#`` heading names the deck; every ``#`` heading ends the current
section. A ``##`` heading starts a section, named by its text and tagged with
its slug; deeper headings change neither. That every heading also closes the
open item is the walker's business (``parse.states``), not this module's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.diagnostics import Diagnostic, Sink
from ankigen.parse.paragraph import line_of, plain_text
from ankigen.parse.slug import slugify
from ankigen.parse.states import Section
from ankigen.syntax import decks

#: What a section's deck name stands under when the deck's name is not known
#: here (it is the file's ``#`` title, possibly in another section).
_UNKNOWN_DECK = "deck"


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


def section_deck_name(deck: str | None, section: str) -> str:
    """The subdeck a ``##`` section makes under ``deck`` (a one-name stand-in when the
    title, read elsewhere, names the deck)."""
    return f"{deck or _UNKNOWN_DECK}::{section}"


def deck_name_problems(
    tokens: Sequence[Token], deck: str | None, subdecks: bool, sink: Sink
) -> None:
    """Report the headings of a section that would name a deck Anki refuses, at their line.

    With no front matter ``deck``, the first ``#`` heading is the deck's name
    (``DECK_TOO_DEEP``; only the file's first title counts, which the caller
    knows); with ``subdecks``, each ``##`` heading adds a level (``SUBDECK_TOO_DEEP``).
    """
    title_seen = False
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.level != 0:
            continue
        text = plain_text(tokens[index + 1].children or [])
        if token.tag == "h1" and deck is None and not title_seen:
            title_seen = True
            why = decks.problem(text)
            if why is not None:
                message = decks.DECK_TOO_DEEP.message(what="the title", why=why)
                sink.error(line_of(token), message, column=1, code=decks.DECK_TOO_DEEP)
        elif token.tag == "h2" and subdecks:
            why = decks.problem(section_deck_name(deck, text))
            if why is not None:
                what = "this section (subdecks: true)"
                message = decks.SUBDECK_TOO_DEEP.message(what=what, why=why)
                sink.error(line_of(token), message, column=1, code=decks.SUBDECK_TOO_DEEP)


def first_title_only(
    sections: Iterable[tuple[str | None, Sequence[Diagnostic]]],
) -> Iterator[Diagnostic]:
    """Each section's (title, diagnostics) in file order, flattened: a title problem
    counts only in the section whose ``#`` heading is the file's first (a later
    ``#`` heading only ends a section; each section, parsed alone, took its own
    first ``#`` for the title)."""
    title_seen = False
    for title, diagnostics in sections:
        for diagnostic in diagnostics:
            if not (title_seen and diagnostic.code == decks.DECK_TOO_DEEP):
                yield diagnostic
        title_seen = title_seen or title is not None


def subdecks_under_title(placed: Iterable[tuple[int, str | None]], deck: str, sink: Sink) -> None:
    """The sections that only the title's own ``::`` makes too deep, at the line of
    their first item (``deck_name_problems`` saw each under a one-name stand-in)."""
    reported: set[str] = set()
    for line, section in placed:
        if section is None or section in reported:
            continue
        reported.add(section)
        why = decks.problem(f"{deck}::{section}")
        if why is not None and decks.problem(section_deck_name(None, section)) is None:
            what = f"the section '{section[:40]}' (subdecks: true)"
            message = decks.SUBDECK_TOO_DEEP.message(what=what, why=why)
            sink.error(line, message, column=1, code=decks.SUBDECK_TOO_DEEP)


def file_deck_name_problem(name: str, sink: Sink) -> None:
    """A deck named by its file (no ``deck:``, no title) whose name Anki refuses."""
    why = decks.problem(name)
    if why is not None:
        message = decks.DECK_TOO_DEEP.message(
            what="the file's name (the deck has no title)",
            why=why + ", or give the deck a '# title'",
        )
        sink.error(1, message, column=1, code=decks.DECK_TOO_DEEP)
