"""What ankigen notes on markdown-it tokens: every key of ``Token.meta``, read and written here.

markdown-it gives each token a free ``meta`` dict. ankigen keeps a few facts
there, each under one key below and only through these accessors, so a
reader can see in one place what is noted, by whom and for whom:

=========================  ===================================  ==========================
fact                       written by                           read by
=========================  ===================================  ==========================
source line of an inline   ``paragraph.note_lines`` (the        ``claims``, ``fragment``,
token                      walker)                              ``paragraph``, ``problems``
cloze number of a          ``cloze.number_marks``               ``fragment`` (``{{cN::``)
``==mark==``
nesting depth of an        ``fragment`` (before rendering a     ``fragment`` (``::`` escapes)
inline token               cloze's text)
lines with a stray ``$``   ``rules.stray_dollar``               ``paragraph``, ``walker``
(offsets in the block)
``\\(`` / ``\\[`` spelt in   ``rules.mathjax_delimiter``          ``parse`` (warning AG600)
text, and their places
quoted formulas of a       ``macro_expansion``                  ``attachment``
``check`` fence, expanded
colons escaped with ``\\``  ``rules.escaped_colon``              ``paragraph``, ``callout``,
(offsets in a text token)                                       ``near_miss`` (separators)
=========================  ===================================  ==========================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from markdown_it.token import Token

_LINE = "ankigen_line"
_CLOZE_NUMBER = "ankigen_cloze_number"
_DEPTH = "ankigen_depth"
_STRAY_DOLLAR_LINES = "ankigen_stray_dollar_lines"
_MATHJAX_SPELLING = "ankigen_mathjax_spelling"
_MATHJAX_PLACES = "ankigen_mathjax_places"
_QUOTE_EXPANSIONS = "ankigen_quote_expansions"
_ESCAPED_COLONS = "ankigen_escaped_colons"


class MathjaxSpelling(NamedTuple):
    """A ``\\(`` or ``\\[`` in an inline token: its offset in the block's content, as shown."""

    offset: int
    shown: str


class MathjaxPlace(NamedTuple):
    """Where a MathJax delimiter stands: line offset in its block, 1-based column, spelling."""

    line_offset: int
    column: int
    spelling: str


# -- source lines of inline tokens ---------------------------------------------


def set_line(token: Token, line: int) -> None:
    """Note the 1-based source line an inline token is on (markdown-it does not track it)."""
    token.meta[_LINE] = line


def noted_line(token: Token) -> int | None:
    """The source line noted by :func:`set_line`, or None."""
    line = token.meta.get(_LINE)
    return int(line) if line is not None else None


def line_or(token: Token, default: int) -> int:
    """The noted source line of an inline token, else ``default``."""
    line = noted_line(token)
    return default if line is None else line


# -- cloze numbers and nesting -------------------------------------------------


def set_cloze_number(mark_open: Token, number: int) -> None:
    """Give a ``mark_open`` token the number of the cloze it opens."""
    mark_open.meta[_CLOZE_NUMBER] = number


def cloze_number(mark_open: Token) -> int | None:
    """The cloze number of a ``mark_open``; None for a mark outside a cloze item's text."""
    number = mark_open.meta.get(_CLOZE_NUMBER)
    return int(number) if number is not None else None


def set_depth(token: Token, depth: int) -> None:
    """Note how many inline elements (links, emphasis, marks) enclose a token."""
    token.meta[_DEPTH] = depth


def depth(token: Token) -> int:
    """The depth noted by :func:`set_depth` (0 when none was noted)."""
    return int(token.meta.get(_DEPTH, 0))


# -- stray dollars -------------------------------------------------------------


def set_stray_dollar_lines(inline: Token, offsets: Sequence[int]) -> None:
    """Note the lines (offsets within the block) of an inline block that hold a stray ``$``."""
    inline.meta[_STRAY_DOLLAR_LINES] = tuple(offsets)


def stray_dollar_lines(inline: Token) -> tuple[int, ...]:
    """The offsets noted by :func:`set_stray_dollar_lines` (none when nothing was noted)."""
    offsets: tuple[int, ...] = inline.meta.get(_STRAY_DOLLAR_LINES, ())
    return offsets


# -- MathJax delimiters --------------------------------------------------------


def set_mathjax_spelling(token: Token, spelling: MathjaxSpelling) -> None:
    """Mark a token made from a ``\\(`` or ``\\[`` spelling."""
    token.meta[_MATHJAX_SPELLING] = spelling


def mathjax_spelling(token: Token) -> MathjaxSpelling | None:
    """The spelling noted by :func:`set_mathjax_spelling`, or None."""
    spelling: MathjaxSpelling | None = token.meta.get(_MATHJAX_SPELLING)
    return spelling


def set_mathjax_places(inline: Token, places: Sequence[MathjaxPlace]) -> None:
    """Note on an inline block where its MathJax delimiters stand."""
    inline.meta[_MATHJAX_PLACES] = tuple(places)


def mathjax_places(block: Token) -> tuple[MathjaxPlace, ...]:
    """The places noted by :func:`set_mathjax_places` (none when nothing was noted)."""
    places: tuple[MathjaxPlace, ...] = block.meta.get(_MATHJAX_PLACES, ())
    return places


# -- quoted formulas of a check, macros expanded ----------------------------------------


def set_quote_expansions(fence: Token, expansions: Sequence[tuple[str, str]]) -> None:
    """Note on a ``check`` fence each quoted formula that uses a macro, with its expansion."""
    fence.meta[_QUOTE_EXPANSIONS] = tuple(expansions)


def quote_expansions(fence: Token) -> tuple[tuple[str, str], ...]:
    """The pairs noted by :func:`set_quote_expansions` (none when nothing was noted)."""
    pairs: tuple[tuple[str, str], ...] = fence.meta.get(_QUOTE_EXPANSIONS, ())
    return pairs


# -- colons escaped with a backslash ---------------------------------------------------


def note_escaped_colon(text: Token, offset: int) -> None:
    """Note that the colon at ``offset`` of a text token's content was written ``\\:``."""
    text.meta[_ESCAPED_COLONS] = (*escaped_colons(text), offset)


def escaped_colons(text: Token) -> tuple[int, ...]:
    """The offsets noted by :func:`note_escaped_colon` (none when nothing was noted)."""
    offsets: tuple[int, ...] = text.meta.get(_ESCAPED_COLONS, ())
    return offsets


def notes_for_part(text: Token) -> dict[Any, Any]:
    """A copy of everything noted on a text token, for a token holding part of its
    content: the escaped colons' offsets would point elsewhere in it, so they are left out."""
    notes = dict(text.meta)
    notes.pop(_ESCAPED_COLONS, None)
    return notes
