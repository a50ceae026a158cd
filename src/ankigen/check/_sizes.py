"""Size guards: a power or product too large to compute quickly is refused before sympy sees it.

sympy computes exact numbers at once, each operation one uninterruptible C
call that a time limit cannot stop: ``2^(10^9)`` or ``(1+pi)^(10^9)``
expanded would take gigabytes before any check. So every power and product
the checker builds is sized first (``_sympy`` calls these).
"""

from __future__ import annotations

import math

import sympy

from ._errors import undecided

#: Largest exact number (in bits) a power or product may produce before it is refused.
MAX_POWER_BITS = 100_000
#: Most bits the expansion of a power may hold (its terms times its largest coefficient).
MAX_EXPANSION_BITS = 1 << 31

_PRODUCT = {"*": "product", "/": "quotient"}


def refuse_large_product(left: sympy.Expr, right: sympy.Expr, op: str, column: int) -> None:
    """Refuse ``left * right`` (or ``/``) when its exact numbers would be too large.

    Exact numbers multiply at once, in one uninterruptible step: a chain of
    ``let`` squares (``a2 = a1*a1``, ``a3 = a2*a2``, ...) doubles the size each time.
    """
    bits = _size_bits(left) + _size_bits(right)
    if bits > MAX_POWER_BITS:
        raise undecided(
            f"number too large at column {column}: the {_PRODUCT[op]} has"
            f" about {int(bits * math.log10(2)):,} digits",
            column=column,
        )


def refuse_large_power(base: sympy.Expr, exponent: sympy.Expr, column: int) -> None:
    """Refuse ``base ^ exponent`` when its result is too large to compute quickly.

    Any base is sized, symbolic ones included: its exact rationals (sympy
    computes ``(2x)^n`` as ``2^n x^n``) and the terms it expands to (``cancel``
    and ``simplify`` expand ``(1+pi)^n`` into ``n+1`` terms).
    """
    size = _exponent_size(exponent)
    if size > 1:
        bits = _size_bits(base) * size
        if bits > MAX_POWER_BITS:
            raise undecided(
                f"number too large at column {column}: the power has about"
                f" {int(bits * math.log10(2)):,} digits",
                column=column,
            )
        _refuse_large_expansion(base, math.floor(size), column)


def _refuse_large_expansion(base: sympy.Expr, n: int, column: int) -> None:
    """Refuse ``base ^ n`` when expanding it (as ``cancel`` or ``simplify`` may) is too large.

    A sum of ``k`` terms to the ``n`` has coefficients up to ``k^n``, computed
    one from the other in single big-number steps, and ``C(n+k-1, k-1)`` terms.
    """
    base_terms = _terms_log2(base, {})
    if n < 2 or base_terms == 0:
        return
    coefficient_bits = n * base_terms
    if coefficient_bits > MAX_POWER_BITS:
        raise undecided(
            f"number too large at column {column}: expanded, the power has coefficients"
            f" of about {int(coefficient_bits * math.log10(2)):,} digits",
            column=column,
        )
    terms = _expanded(base_terms, n)
    if terms + math.log2(coefficient_bits) > math.log2(MAX_EXPANSION_BITS):
        raise undecided(
            f"power too large at column {column}: expanded, it has about"
            f" 10^{int(terms * math.log10(2))} terms",
            column=column,
        )


def _exponent_size(exponent: sympy.Expr) -> float:
    """How large an exponent is: its magnitude, or its rational part's (``10^9 + pi``)."""
    if exponent.is_Rational:
        return float(abs(exponent)) if exponent.is_finite else 0.0
    if not exponent.is_number:
        return 0.0
    parts = (exponent.as_coeff_Add()[0], exponent.as_coeff_Mul()[0])
    size = max((float(abs(part)) for part in parts if part.is_Number), default=0.0)
    return size if math.isfinite(size) else 0.0  # x^oo is left to sympy


def _size_bits(value: sympy.Expr) -> float:
    """Rough bit size of a number's exact parts: sympy evaluates powers of these.

    ``sqrt(2)^(10^10)`` becomes the integer ``2^(5*10^9)`` inside sympy, in
    one uninterruptible C call, so the rationals inside a base count too.
    """
    total = 0.0
    for atom in value.atoms(sympy.Rational):
        size = max(abs(atom.p), abs(atom.q))
        total += math.log2(size) if size > 1 else 0.0
    return total


def _terms_log2(expr: sympy.Expr, seen: dict[sympy.Expr, float], power: float = 1.0) -> float:
    """log2 of how many terms ``expr ^ power`` expands to (``power`` 1: ``expr`` itself).

    A sum of ``k`` terms to the ``n`` has ``C(n+k-1, k-1)`` terms; a product
    the product of its factors' counts. ``seen`` keeps each subexpression's
    count: a ``let`` used twice is one object, counted once.
    """
    if expr not in seen:
        if expr.is_Add:
            counts = [_terms_log2(arg, seen) for arg in expr.args]
            top = max(counts)
            seen[expr] = top + math.log2(sum(2 ** (c - top) for c in counts))
        elif expr.is_Mul:
            seen[expr] = sum(_terms_log2(arg, seen) for arg in expr.args)
        elif expr.is_Pow:
            seen[expr] = _terms_log2(expr.base, seen, _exponent_size(expr.exp))
        else:
            seen[expr] = 0.0
    return _expanded(seen[expr], math.floor(power))


def _expanded(terms_log2: float, n: int) -> float:
    """log2 of the terms of (a sum of ``2^terms_log2`` terms) to the ``n``."""
    if n < 2 or terms_log2 == 0:
        return terms_log2 if n >= 1 else 0.0
    if terms_log2 > 60:
        return math.inf
    k = round(2**terms_log2)
    return (math.lgamma(n + k) - math.lgamma(k) - math.lgamma(n + 1)) / math.log(2)
