"""Claim coverage (format sections 12 and 18): every claim on the card is quoted or cited.

The claims come from the parse stage (``Item.claims``, read from the parsed
tokens by ``ankigen.parse.claims``; the context line's here); which quote
covers which occurrence is ``_occurrences``'s to say. This module reports:
a quote the card does not hold, at the statement and, when the card now
says something else in its place, at that line of the card too; and each
claim the item's level requires that no quote covers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ankigen.diagnostics import Code, Diagnostic, Sink
from ankigen.model import Claim, ClaimLevel, Item

if TYPE_CHECKING:  # the checker's tree loads when a check runs, not for every build
    from ._ast import Quote, Statement
    from ._occurrences import Missing, Occurrences

#: Code of the warning for a claim no check quotes or cites.
UNVERIFIED = Code.UNVERIFIED_CLAIM
#: Code of the error for a quote the item does not hold.
NOT_IN_ITEM = Code.QUOTE_NOT_IN_ITEM
#: Code of the error for a quote made more often than the card shows it (level all).
QUOTED_TOO_OFTEN = Code.QUOTED_TOO_OFTEN


def shown_quote(quote: Quote) -> str:
    """A quote as the check writes it (its macros not expanded)."""
    return f"${quote.written or quote.text}$" if quote.formula else f"`{quote.text}`"


def shown_claim(claim: Claim) -> str:
    """A claim as the card writes it (a number with its unit word, when it is a unit)."""
    if claim.formula:
        return f"${' '.join(claim.text.split())}$"
    if claim.unit:
        from ._occurrences import claim_key

        exact, loose = claim_key(claim)
        if exact != loose:
            return f"`{claim.text} {claim.unit}`"
    return f"`{claim.text}`"


def report_coverage(sink: Sink, occurrences: Occurrences) -> None:
    """Report the quotes the card does not hold and the claims no quote covers."""
    unverified = occurrences.unverified() if occurrences.level is not ClaimLevel.OFF else []
    blamed: dict[int, Missing] = {}
    for missing in occurrences.missing:
        now = occurrences.now_says(missing, [c for c in unverified if id(c) not in blamed])
        if now is not None:
            blamed[id(now)] = missing
        _report_not_in_item(sink, missing, now)
    for claim in unverified:
        was = blamed.get(id(claim))
        note = (
            ""
            if was is None
            else (
                f"; the check at line {was.line} quotes {shown_quote(was.quote)},"
                " which the card does not say"
            )
        )
        inside = occurrences.quoted_inside(claim)
        if inside is not None:
            note += (
                f"; the check quotes `{inside.text}`, a number inside this formula: a formula "
                "on the card is quoted whole, as it stands"
            )
        if id(claim) in occurrences.in_context:
            # Not written at the item's line: say where the card shows it from.
            note += (
                f" (it is on the card's context line, '{occurrences.item.context}': the "
                "callout title, section heading or front matter prompt above the item)"
            )
        sink.warning(
            claim.line,
            UNVERIFIED.message(claim=shown_claim(claim), note=note),
            column=claim.column,
            code=UNVERIFIED,
        )


def _report_not_in_item(sink: Sink, missing: Missing, now: Claim | None) -> None:
    quote = missing.quote
    if missing.shown:
        times = "once" if missing.shown == 1 else f"{missing.shown} times"
        sink.error(
            missing.line,
            QUOTED_TOO_OFTEN.message(quote=shown_quote(quote), times=times),
            column=quote.column,
            code=QUOTED_TOO_OFTEN,
        )
        return
    if quote.formula:
        hint = "quote one whole formula of the item as it stands (notation aside)"
    else:
        hint = "quote a number as the item writes it, with its unit"
    if now is not None:
        hint = f"the card now says {shown_claim(now)} at line {now.line} instead; {hint}"
    sink.error(
        missing.line,
        NOT_IN_ITEM.message(quote=shown_quote(quote), hint=hint),
        column=quote.column,
        code=NOT_IN_ITEM,
    )


def unverified_claims(diagnostics: Iterable[Diagnostic]) -> int:
    """How many of ``diagnostics`` are unverified claims."""
    return sum(d.code == UNVERIFIED for d in diagnostics)


def warn_unverified(
    sink: Sink, item: Item, quotes: Iterable[Quote], level: ClaimLevel = ClaimLevel.ANSWERS
) -> None:
    """One ``unverified claim`` warning per claim of ``item`` that ``quotes`` leave uncovered.

    At claim level ``off`` nothing is a claim, so nothing is reported.
    """
    if level is ClaimLevel.OFF:
        return
    from ._occurrences import Occurrences

    occurrences = Occurrences(item, level)
    for quote in quotes:
        occurrences.take(quote, 0)
    report_coverage(sink, occurrences)


def quotes_of(statement: Statement | None) -> tuple[Quote, ...]:
    """The quotes a statement makes (none for a line that did not parse)."""
    return () if statement is None else statement.quotes
