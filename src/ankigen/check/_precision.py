"""How close ``~=`` must be (format section 18): the precision a number is written with.

A quoted ``\\approx 3.13`` or `` `1.3x` `` holds only within half a unit of
its last written digit (0.005 and 0.05), unless ``within P%`` says
otherwise: a card that rounds must round right. Without a written number on
either side, a quoted ``\\approx`` allows 1% and ``~=`` in a check 1e-9,
relative to the right side.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ankigen.parse.claim_numbers import read_number

from ._ast import Assert, Expr, Num, QuotedFormula, QuotedNumber, Unary

#: Relative tolerance of ``~=`` without ``within`` and without a written number.
DEFAULT_TOLERANCE = Fraction(1, 10**9)
_DIGITS = re.compile(r"[\d,]*(?:\.(?P<decimals>\d+))?(?:[eE](?P<exponent>[-+]?\d+))?")


def half_unit(text: str, value: Fraction) -> Fraction | None:
    """Half a unit of the last digit of a number written as ``text`` and worth ``value``.

    None for a number written exactly (``½``, ``1/3``, ``10²``, ``four``).
    """
    written = read_number(text)
    if written is None or not text[:1].isdecimal() or any(c in text for c in "/²³¹⁰⁴⁵⁶⁷⁸⁹"):
        return None
    digits = _DIGITS.match(text)
    assert digits is not None  # the pattern matches the empty string
    decimals = len(digits.group("decimals") or "")
    exponent = int(digits.group("exponent") or 0)
    half = Fraction(1, 2) * Fraction(10) ** (exponent - decimals)
    if written.kind == "%":
        half /= 100
    if written.value and value != written.value * (Fraction(1, 100) if written.kind == "%" else 1):
        half *= value / (written.value / (100 if written.kind == "%" else 1))  # in SI units
    return half


def written_half_unit(expr: Expr) -> Fraction | None:
    """Half a unit of the last digit of a quoted or written number, or None."""
    if isinstance(expr, Unary):
        return written_half_unit(expr.operand)
    if isinstance(expr, QuotedFormula):
        return written_half_unit(expr.value)
    if isinstance(expr, QuotedNumber):
        return half_unit(expr.text, expr.value)
    if isinstance(expr, Num) and expr.written:
        return half_unit(expr.written, expr.value)
    return None


def tolerance(statement: Assert, left: Expr, right: Expr) -> tuple[Fraction, bool]:
    """The tolerance of one ``~=`` link and whether it is absolute (else relative)."""
    if statement.within is not None:
        return statement.within, False
    for side in (right, left):
        half = written_half_unit(side)
        if half is not None:
            return half, True
    return statement.default_within or DEFAULT_TOLERANCE, False
