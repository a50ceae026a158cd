"""Properties of claim level ``all`` (format section 18), on a fully checked fixture deck.

Any edit to a number, formula, unit or number in words on a card fails
``--strict``; rewriting the card's formulas in equivalent notation passes it.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.model import Claim
from tests.check.claims_support import edited, parse, strict_errors, with_claim_replaced

SOURCE = (Path(__file__).parent / "claims_all" / "queue.md").read_text("utf-8")
DECK = parse(SOURCE)
#: Every claim the level requires, with its item's line and the texts the item shows.
CLAIMS = [
    (item.line, claim, frozenset(c.text for c in item.claims))
    for item in DECK.items
    for claim in item.claims
    if claim.everywhere
]
#: Units and words changed into others that are something else.
_UNITS = {"ms": "µs", "per minute": "per hour"}
_WORDS = {"two thirds": "three quarters", "twice": "thrice"}


def test_the_fixture_checks_clean_and_has_claims_of_every_kind() -> None:
    assert strict_errors(SOURCE) == []
    kinds = {
        "formula"
        if c.formula
        else "unit"
        if c.unit in _UNITS
        else "word"
        if c.text in _WORDS
        else "n"
        for _, c, _ in CLAIMS
    }
    assert kinds == {"formula", "unit", "word", "n"}


def _kind(claim: Claim) -> str:
    if claim.formula:
        return "formula"
    if claim.unit in _UNITS:
        return "unit"
    return "word" if claim.text in _WORDS else "n"


def _edit(claim: Claim, shown: frozenset[str], how: int) -> str:
    """The source with one visible change to ``claim`` (``how`` picks which, for units)."""
    if claim.text in _WORDS:
        return with_claim_replaced(SOURCE, claim, _WORDS[claim.text])
    if claim.unit in _UNITS and how % 2:
        line = SOURCE.split("\n")[claim.line - 1]
        changed = line.replace(
            f"{claim.text} {claim.unit}", f"{claim.text} {_UNITS[claim.unit]}", 1
        )
        return SOURCE.replace(line, changed, 1)
    return with_claim_replaced(SOURCE, claim, edited(claim, set(shown)))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(CLAIMS), st.integers(min_value=0, max_value=1))
def test_any_edit_of_a_claim_fails_strict(
    target: tuple[int, Claim, frozenset[str]], how: int
) -> None:
    item_line, claim, shown = target
    text = _edit(claim, shown, how)
    assert text != SOURCE
    assert strict_errors(text, only_line=item_line), (claim, how)


#: Rewrites that write the same TeX another way (format section 18).
_NOTATION = [
    (r"\\frac\{", r"\\dfrac{"),
    (r"\\frac\{", r"\\tfrac{"),
    (r" = ", r"=\\, "),
    (r"\\frac\{(\w)\}\{(\w)\}", r"\\frac\1\2"),
    (r"1 - \\rho", r"-\\rho + 1"),
    (r"\\frac\{L\}\{\\lambda\}", r"L/\\lambda"),
    (r"\\binom\{4\}\{2\}", r"\\binom 4 2"),
    (r"\\rho", r"{\\rho}"),
]


def _rewrite_cards(chosen: list[int]) -> str:
    """The fixture with the chosen rewrites applied inside card formulas (checks left alone)."""
    parts = re.split(r"(```\w+\n.*?```)", SOURCE, flags=re.S)
    for index, part in enumerate(parts):
        if part.startswith("```"):
            continue
        for pick in chosen:
            part = re.sub(r"\$[^$]+\$", lambda m, p=pick: re.sub(*_NOTATION[p], m.group()), part)
        parts[index] = part
    return "".join(parts)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(_NOTATION) - 1), min_size=1, max_size=3))
def test_equivalent_notation_on_the_card_passes_strict(chosen: list[int]) -> None:
    text = _rewrite_cards(chosen)
    assert strict_errors(text) == [], chosen
