"""Quoted formulas read with the card's macros (format §17: a quote reads the expanded formula).

The parse stage notes, on each ``check`` block, the quoted formulas that use
an author's macro with their expansion (``CodeBlock.expansions``), expanded
with the macros of the card's formulas. A quote is matched and read as
expanded, so a quote written as the card writes it (macros and all), or as
the card shows it, matches; messages show it as the check writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ._ast import Quote
from ._errors import StatementError, StatementSyntaxError
from ._lexer import Token

#: A block's quoted formulas that use a macro (as written), each with its expansion.
Expansions = Mapping[str, str]
NO_EXPANSIONS: Expansions = MappingProxyType({})


def formula_quote(token: Token, expansions: Expansions) -> Quote:
    """The quote a ``$TEX$`` token makes: its TeX expanded, as the card's formulas are."""
    expanded = expansions.get(token.text)
    if expanded is None:
        return Quote(token.text, True, token.column)
    return Quote(expanded, True, token.column, written=token.text)


def in_expansion(exc: StatementError, quote: Quote) -> StatementError:
    """A problem of an expanded quote's TeX, at the quote: its columns would be the
    expansion's, which the check line does not show."""
    if isinstance(exc, StatementSyntaxError):
        detail = f"{exc.detail} (in its expansion ${quote.text}$)"
        return StatementSyntaxError(quote.column, detail, code=exc.code)
    exc.column = quote.column
    return exc
