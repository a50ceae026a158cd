"""Which occurrence on the card each quote covers (format section 18).

Every number and formula the card shows is one occurrence; a quote or cite
covers one, the first not yet covered in reading order (context line,
question, answer or cloze text, Extra): first one written exactly as the
quote, then one the level requires, numbers inside formulas and the word
"one" last. A number shown twice needs two quotes; a quote of a number whose
every occurrence is covered already still holds (a statement may use a
quoted number twice). Numbers match by value, ``%`` or times sign and unit
in SI units (``1`` is ``one``, ``0.5 s`` is ``500 ms``); formulas by
notation (``_notation``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from ankigen.model import Claim, ClaimLevel, Item
from ankigen.parse.claim_numbers import read_number
from ankigen.parse.claims import context_claims

from ._ast import Quote
from ._notation import notation_key
from ._units import quantity

__all__ = ["Missing", "Occurrences", "claim_key", "quote_key"]


def _number_key(text: str, unit: str) -> tuple[str, str]:
    """The exact key (unit read in SI) and the loose one (the number alone)."""
    written = read_number(text)
    if written is None:
        return f"t:{text}", f"t:{text}"
    loose = f"n:{written.kind}{written.value}"
    measured = quantity(written.value, unit) if unit else None
    if measured is None:
        return loose, loose
    return f"n:{written.kind}{measured.value} {measured.units}", loose


def claim_key(claim: Claim) -> tuple[str, str]:
    """The keys a claim is matched by: exact, and without its unit."""
    if claim.formula:
        key = notation_key(claim.text)
        return key, key
    return _number_key(claim.text, claim.unit)


def quote_key(quote: Quote) -> str:
    """The key a quote is matched by."""
    if quote.formula:
        return notation_key(quote.text)
    written = read_number(quote.text)
    if written is None or not written.unit:
        return _number_key(quote.text, "")[0]
    number = quote.text[: len(quote.text) - len(written.unit)].strip()
    return _number_key(number, written.unit)[0]


@dataclass(frozen=True)
class Missing:
    """A quote the card does not hold, and the statement line that makes it."""

    quote: Quote
    line: int
    #: How often the card shows it, when it does but fewer times than it is quoted.
    shown: int = 0


@dataclass
class Occurrences:
    """The occurrences of one item and which quotes cover them."""

    item: Item
    level: ClaimLevel
    claims: tuple[Claim, ...] = ()
    covered: list[bool] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    _keys: list[tuple[str, str]] | None = None
    _values: dict[Fraction, Claim] | None = None
    #: The claims of the card's context line (by identity): written above the item.
    in_context: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        context = context_claims(self.item.context, self.item.line) if self.item.context else ()
        self.claims = (*context, *self.item.claims)
        self.covered = [False] * len(self.claims)
        self.in_context = frozenset(id(claim) for claim in context)

    def keys(self) -> list[tuple[str, str]]:
        """Every claim's keys, worked out on first need (units may load pint)."""
        if self._keys is None:
            self._keys = [claim_key(claim) for claim in self.claims]
        return self._keys

    def take(self, quote: Quote, line: int) -> bool:
        """Cover the occurrence ``quote`` names; False (and remembered) when there is none."""
        key = quote_key(quote)
        loose = self.level is not ClaimLevel.ALL and not quote.formula
        matching = [
            i
            for i, (exact, without_unit) in enumerate(self.keys())
            if exact == key or (loose and without_unit == key)
        ]
        if not matching:
            self.missing.append(Missing(quote, line))
            return False
        open_ = [i for i in matching if not self.covered[i]]
        if not open_ and self.level is ClaimLevel.ALL and not quote.binding:
            # At level all a quote covers one occurrence: one more quote than the card
            # shows is a quote of what the card no longer says (an occurrence removed).
            self.missing.append(Missing(quote, line, len(matching)))
            return False
        # In reading order: one written as the quote writes it, then one the
        # level requires, then one that counts at some level (not a number
        # inside a formula, nor the word "one"), then any other.
        chosen = min(open_ or matching, key=lambda i: self._preference(i, quote))
        self.covered[chosen] = True
        return True

    def _preference(self, index: int, quote: Quote) -> tuple[bool, bool, bool, int]:
        claim = self.claims[index]
        counted = claim.everywhere
        written = claim.text == quote.text or f"{claim.text} {claim.unit}" == quote.text
        return (not (written and counted), not claim.required_at(self.level), not counted, index)

    def shown_number(self, value: Fraction) -> Claim | None:
        """The first number the card shows worth ``value`` (one that counts: not in a formula)."""
        if self._values is None:
            self._values = {}
            for claim in self.claims:
                written = None if claim.formula or not claim.everywhere else read_number(claim.text)
                if written is not None and not written.kind:  # 4 is not 4x, 1 is not 100%
                    self._values.setdefault(written.value, claim)
        return self._values.get(value)

    def unverified(self) -> list[Claim]:
        """The claims the level requires that no quote covers, in reading order."""
        return [
            claim
            for claim, done in zip(self.claims, self.covered, strict=True)
            if not done and claim.required_at(self.level)
        ]

    def quoted_inside(self, formula: Claim) -> Claim | None:
        """A number inside ``formula`` that a quote covered (``8.314`` of ``$R \\approx
        8.314$``): what the author quoted meaning the formula. The numbers of a formula
        follow it among the claims, not counted on their own (``everywhere`` false)."""
        index = next((i for i, claim in enumerate(self.claims) if claim is formula), None)
        if index is None or not formula.formula:
            return None
        for claim, done in zip(self.claims[index + 1 :], self.covered[index + 1 :], strict=True):
            if claim.formula or claim.everywhere or claim.line != formula.line:
                return None
            if done:
                return claim
        return None

    def now_says(self, missing: Missing, unverified: Iterable[Claim]) -> Claim | None:
        """The uncovered claim most like a quote the card no longer holds: what it says now."""
        candidates = [c for c in unverified if c.formula == missing.quote.formula]
        if not candidates:
            return None
        return max(
            candidates,
            key=lambda c: difflib.SequenceMatcher(None, c.text, missing.quote.text).ratio(),
        )
