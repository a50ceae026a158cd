"""A fast, sympy-free proof for the commonest assertion: exact numbers only.

``assert `274` == 274`` or ``assert `373`/8 ~= 46.625 within 1%`` compares
rationals built from literals and quoted numbers with ``+ - * /``. Python's
``Fraction`` decides those exactly, in microseconds, without importing sympy.

This path only ever says "it holds": anything else (a name, a call, a
power, ``where`` or ``for``, a division by zero, a very large number, an
assertion that fails) is left to ``_evaluate.run_assert``, which writes the
messages. So a deck's diagnostics are the same with or without it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ._ast import Assert, Binary, Expr, Num, QuotedNumber, Unary
from ._precision import DEFAULT_TOLERANCE, tolerance

__all__ = ["DEFAULT_TOLERANCE", "exact_value", "holds_exactly"]
#: Largest numerator or denominator (in bits) this path works with; larger is sympy's.
_MAX_BITS = 256

_HOLDS: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


class _NotExact(Exception):
    """The expression is not a small exact rational of literals: ask sympy."""


def holds_exactly(statement: Assert) -> bool:
    """True when ``statement`` compares exact rationals of literals and holds.

    False means "not decided here", never "fails".
    """
    if statement.where or statement.loop is not None:
        return False
    try:
        return all(
            _link_holds(op, _value(left), _value(right), tolerance(statement, left, right))
            for left, op, right in statement.links()
        )
    except _NotExact:
        return False


def exact_value(expr: Expr) -> Fraction | None:
    """The exact value of an expression of literals and ``+ - * /``, else None."""
    try:
        return _value(expr)
    except _NotExact:
        return None


def _link_holds(op: str, left: Fraction, right: Fraction, allowed: tuple[Fraction, bool]) -> bool:
    if op == "~=":
        gap, absolute = allowed
        scale = abs(right) if right != 0 and not absolute else Fraction(1)
        return abs(left - right) <= gap * scale
    compare = _HOLDS.get(op)
    return compare is not None and compare(left, right)


def _value(expr: Expr) -> Fraction:
    """The exact value of ``expr``; raises _NotExact for anything but literals and + - * /."""
    if isinstance(expr, Num | QuotedNumber):
        return _small(expr.value)
    if isinstance(expr, Unary):
        operand = _value(expr.operand)
        return -operand if expr.op == "-" else operand
    if not isinstance(expr, Binary) or expr.op not in ("+", "-", "*", "/"):
        raise _NotExact
    left, right = _value(expr.left), _value(expr.right)
    if expr.op == "+":
        return _small(left + right)
    if expr.op == "-":
        return _small(left - right)
    if expr.op == "*":
        return _small(left * right)
    if right == 0:
        raise _NotExact  # sympy's path names the column of the division by zero
    return _small(left / right)


def _small(value: Fraction) -> Fraction:
    if value.numerator.bit_length() > _MAX_BITS or value.denominator.bit_length() > _MAX_BITS:
        raise _NotExact
    return value
