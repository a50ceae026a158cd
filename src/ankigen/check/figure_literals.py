"""Figures read the deck's numbers (format section 18): a literal in a figure script that
equals a number on a card showing the figure is a warning.

A figure drawn from numbers of its own can disagree with the card it stands
on (``DEVICE_COUNTS = (1, 2, 4, 16)`` beside a card that says k is 1, 2, 4
or 8) without any check noticing. Its data belongs in a ``formulas`` block
(``let device_counts = [1, 2, 4, 8]``), which the checks prove and the
script reads (``formulas["device_counts"]()``). The script is read with
Python's ``ast``, never run here. Keyword arguments of a method call
(``ax.plot(..., linewidth=2)``, ``fig.tight_layout(rect=...)``) are the
drawing's style, not its data, and are left alone; those of a formula's call
(``step(T_comm=2 * t_comm)``) are data.
Only decks at claim level ``all`` are judged. The warning stands at the
card's number, in the content file (so an up-to-date deck replays it), and
names the script's line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Code, Diagnostic, warning
from ankigen.model import Claim, ClaimLevel, Deck, Item
from ankigen.parse.claim_numbers import read_number

__all__ = ["FIGURE_LITERAL", "figure_literals"]

#: Code of the warning for a figure script's number that is a number of its card.
FIGURE_LITERAL = Code.FIGURE_LITERAL


def figure_literals(deck: Deck, figures_dir: Path) -> list[Diagnostic]:
    """One warning per literal of a figure script equal to a number on a card showing it."""
    if deck.claims is not ClaimLevel.ALL:
        return []
    shown: dict[str, dict[Fraction, Claim]] = {}
    for item in deck.items:
        for figure in _figures_of(item):
            numbers = shown.setdefault(figure, {})
            for claim in item.claims:
                value = _plain_value(claim)
                if value is not None:
                    numbers.setdefault(value, claim)
    found: list[Diagnostic] = []
    for figure, numbers in sorted(shown.items()):
        script = figures_dir / f"{figure}.py"
        for node, value in _literals(script):
            if value in numbers:
                found.append(_warning(deck, script, node, numbers[value]))
    return found


def _figures_of(item: Item) -> Iterator[str]:
    for image in (*item.front.images, *item.back.images):
        if image.figure_id is not None:
            yield image.figure_id


def _plain_value(claim: Claim) -> Fraction | None:
    """The value of a number the card shows (not inside a formula, no % or times sign)."""
    if claim.formula or not claim.everywhere:
        return None
    written = read_number(claim.text)
    return None if written is None or written.kind else written.value


def _literals(script: Path) -> Iterator[tuple[ast.Constant, Fraction]]:
    """Every number constant of the script but the keyword arguments of method calls."""
    try:
        tree = ast.parse(script.read_text("utf-8"))
    except (OSError, SyntaxError, ValueError):
        return  # the drawing reports a missing or broken script
    style = {
        id(node)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        for keyword in call.keywords
        for node in ast.walk(keyword.value)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and type(node.value) in (int, float)
            and id(node) not in style
        ):
            yield node, Fraction(repr(node.value))


def _warning(deck: Deck, script: Path, node: ast.Constant, claim: Claim) -> Diagnostic:
    """The warning, at the card's number (so an up-to-date deck replays it with its own)."""
    place = f"{display_path(script)}:{node.lineno}:{node.col_offset + 1}"
    return warning(
        deck.display_path,
        claim.line,
        FIGURE_LITERAL.message(figure=script.stem, text=claim.text, value=node.value, place=place),
        column=claim.column,
        code=FIGURE_LITERAL,
    )
