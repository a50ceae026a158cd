"""Helpers for the claims tests: check a content text strictly, and edit one claim on a card."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from ankigen.check import check_deck
from ankigen.check._ast import Quote
from ankigen.check._grammar import parse_statement
from ankigen.diagnostics import Diagnostic, strictly
from ankigen.model import Claim, Deck, Item
from ankigen.parse import parse_text
from ankigen.parse.claims import formula_key, number_key

SHOWN = "content/deck.md"


def parse(text: str) -> Deck:
    """Parse content text as ``content/deck.md``; the parse must be clean."""
    parsed = parse_text(text, Path(SHOWN), Path("content"), SHOWN)
    assert parsed.deck is not None
    assert not any(d.is_error for d in parsed.diagnostics), parsed.diagnostics
    return parsed.deck


def strict_errors(text: str, only_line: int | None = None) -> list[Diagnostic]:
    """Every problem ``check --strict`` reports, optionally for the item at ``only_line`` only."""
    parsed = parse_text(text, Path(SHOWN), Path("content"), SHOWN)
    assert parsed.deck is not None
    deck = parsed.deck
    if only_line is not None:
        items = tuple(item for item in deck.items if item.line == only_line)
        deck = dataclasses.replace(deck, items=items)
    report = check_deck(deck)
    return [d for d in strictly([*parsed.diagnostics, *report.diagnostics], True) if d.is_error]


def quotes_of(item: Item) -> list[Quote]:
    """Every quote the item's check blocks make (statements that parse)."""
    quotes: list[Quote] = []
    for block in item.checks:
        for line in block.text.splitlines():
            statement = parse_statement(line)
            if statement is not None:
                quotes.extend(statement.quotes)
    return quotes


def is_quoted(claim: Claim, quotes: list[Quote]) -> bool:
    """True when a quote names this claim."""
    if claim.formula:
        return any(q.formula and formula_key(q.text) == formula_key(claim.text) for q in quotes)
    return any(not q.formula and number_key(q.text) == number_key(claim.text) for q in quotes)


_NEXT = {"½": "⅓", "⅓": "¼", "¼": "⅕", "⅕": "⅙"}
_SWAP = {"+": "-", "-": "+", "<": ">", ">": "<", "=": "<"}
_MARKER = re.compile(r"\{\{c\d+::")


def edited(claim: Claim, shown: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """The claim's text with one visible change the item does not already show.

    A digit is bumped (outside cloze markers) until the number is new, else
    an operator is flipped; ``shown`` holds the texts of the item's claims.
    """
    text = claim.text
    if text in _NEXT:
        while text in _NEXT and (text == claim.text or text in shown):
            text = _NEXT[text]
        return text
    hidden = {i for m in _MARKER.finditer(text) for i in range(m.start(), m.end())}
    digits = [i for i, char in enumerate(text) if char.isdigit() and i not in hidden]
    for bump in range(1, 10):
        if not digits:
            break
        index = digits[0]
        candidate = f"{text[:index]}{(int(text[index]) + bump) % 10}{text[index + 1 :]}"
        if candidate not in shown:
            return candidate
    for index, char in enumerate(text):
        if char in _SWAP and index not in hidden:
            return f"{text[:index]}{_SWAP[char]}{text[index + 1 :]}"
    raise AssertionError(f"no edit for {text!r}")


def with_claim_replaced(source: str, claim: Claim, replacement: str) -> str:
    """``source`` with the claim at its line and column replaced (formulas keep their ``$``)."""
    lines = source.split("\n")
    row = lines[claim.line - 1]
    start = claim.column - 1
    if claim.formula:
        start = row.index(claim.text.split("\n", 1)[0], start)
    assert row[start:].startswith(claim.text.split("\n", 1)[0]), (row, claim)
    if "\n" in claim.text:
        raise AssertionError("multi-line claims are edited by hand")
    lines[claim.line - 1] = row[:start] + replacement + row[start + len(claim.text) :]
    return "\n".join(lines)
