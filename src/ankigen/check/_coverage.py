"""Claim coverage (format section 12): every claim on the card is quoted or cited.

The claims come from the parse stage (``Item.claims``, read from the parsed
tokens by ``ankigen.parse.claims``); a claim is covered when a statement of
the item's checks quotes the same number (``x`` and the times sign alike) or the same
formula (cloze markers and white space aside). Covering is by text, so an
edit to one of several equal numbers makes a new, unquoted claim.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ankigen.diagnostics import Sink
from ankigen.model import Claim, ClaimLevel, Item
from ankigen.parse.claims import formula_key, number_key

if TYPE_CHECKING:  # the checker's tree loads when a check runs, not for every build
    from ._ast import Quote, Statement

#: Code of the warning for a claim no check quotes or cites.
UNVERIFIED = "AG201"
#: Code of the error for a quote the item does not hold.
NOT_IN_ITEM = "AG202"


def _key(text: str, formula: bool) -> tuple[bool, str]:
    return formula, formula_key(text) if formula else number_key(text)


def missing_quotes(item: Item, quotes: Iterable[Quote]) -> list[Quote]:
    """The quotes that name nothing the item shows."""
    shown = {_key(claim.text, claim.formula) for claim in item.claims}
    return [quote for quote in quotes if _key(quote.text, quote.formula) not in shown]


def report_not_in_item(sink: Sink, line: int, quote: Quote) -> None:
    """Report a quote the item does not hold, at the statement's line."""
    if quote.formula:
        shown = f"${quote.text}$"
        hint = "quote one whole formula of the item exactly as it stands (white space aside)"
    else:
        shown = f"`{quote.text}`"
        hint = "quote a number exactly as the item writes it"
    sink.error(
        line,
        f"check quotes {shown}, but the item does not say it: {hint}",
        column=quote.column,
        code=NOT_IN_ITEM,
    )


def unverified_claims(item: Item, quotes: Iterable[Quote]) -> list[Claim]:
    """The item's required claims that no quote covers."""
    quoted = {_key(quote.text, quote.formula) for quote in quotes}
    return [c for c in item.claims if c.required and _key(c.text, c.formula) not in quoted]


def warn_unverified(
    sink: Sink, item: Item, quotes: Iterable[Quote], level: ClaimLevel = ClaimLevel.ANSWERS
) -> None:
    """One ``unverified claim`` warning per claim of ``item`` not quoted or cited.

    At claim level ``off`` nothing is a claim, so nothing is reported.
    """
    if level is ClaimLevel.OFF:
        return
    for claim in unverified_claims(item, quotes):
        sink.warning(
            claim.line,
            f"unverified claim {_shown(claim)}: quote it in a check, or cite it",
            column=claim.column,
            code=UNVERIFIED,
        )


def _shown(claim: Claim) -> str:
    if claim.formula:
        return f"${' '.join(claim.text.split())}$"
    return f"`{claim.text}`"


def quotes_of(statement: Statement | None) -> tuple[Quote, ...]:
    """The quotes a statement makes (none for a line that did not parse)."""
    return () if statement is None else statement.quotes
