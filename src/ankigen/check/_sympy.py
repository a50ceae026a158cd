"""Build sympy objects from the checker's syntax tree, guarding their size.

Names are resolved here, at the syntax-tree level, rather than with sympy's
``subs``: a ``where`` value or ``let`` body is built in place of the name, so
every power sympy ever sees passes through ``_power``'s size guard first
(``subs`` could make sympy compute ``10^(10^10)`` before any check).

Free symbols are created positive (real and > 0). The decks describe
quantities (times, sizes, device counts, rates), and the assumption lets
``simplify`` prove what authors mean: ``sqrt(k^2) == k``, ``log(a*b) ==
log(a) + log(b)``. A ``limit`` variable is only real, so a limit towards a
negative point still makes sense.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ._ast import Binary, Call, Expr, Name, Num, QuotedFormula, QuotedNumber, Unary
from ._errors import StatementError

#: Code of the error for a limit whose one-sided limits differ.
ONE_SIDED_LIMIT = "AG208"
#: Largest exact number (in bits) a power may produce before it is refused.
MAX_POWER_BITS = 100_000
#: Most bits the expansion of a power may hold (its terms times its largest coefficient).
MAX_EXPANSION_BITS = 1 << 31


@dataclass(frozen=True)
class Definition:
    """A ``let``: its body (None when the line had an error), line and scope."""

    name: str
    value: Expr | None
    line: int
    scope: Mapping[str, Definition]


Scope = Mapping[str, Definition]


@dataclass
class Context:
    """What one evaluation substitutes: ``where``/``for`` values and limit variables."""

    where: Mapping[str, Expr] = field(default_factory=dict)
    where_scope: Scope = field(default_factory=dict)
    bound: dict[str, sympy.Symbol] = field(default_factory=dict)
    expanding: frozenset[str] = frozenset()
    #: Free symbols met, in order of first use, for messages.
    free: dict[str, None] = field(default_factory=dict)
    #: ``let`` values already built in this context, so a name used twice
    #: (or a chain ``a2 = a1 + a1``) is built once, not exponentially often.
    memo: dict[int, sympy.Expr] = field(default_factory=dict)


def symbol(name: str) -> sympy.Symbol:
    """The free symbol for a name (see the module docstring for its assumptions)."""
    return sympy.Symbol(name, positive=True)


def build(expr: Expr, scope: Scope, ctx: Context) -> sympy.Expr:
    """The sympy value of ``expr`` with names resolved in ``scope`` and ``ctx``."""
    if isinstance(expr, Num | QuotedNumber):
        return sympy.Rational(expr.value.numerator, expr.value.denominator)
    if isinstance(expr, QuotedFormula):
        return build(expr.value, scope, ctx)
    if isinstance(expr, Name):
        return _name(expr, scope, ctx)
    if isinstance(expr, Unary):
        operand = build(expr.operand, scope, ctx)
        return -operand if expr.op == "-" else operand
    if isinstance(expr, Binary):
        return _binary(expr, scope, ctx)
    return _call(expr, scope, ctx)


_CONSTANTS: dict[str, sympy.Expr] = {"pi": sympy.pi, "e": sympy.E, "oo": sympy.oo}


def _name(expr: Name, scope: Scope, ctx: Context) -> sympy.Expr:
    """Resolve a name: limit variable, then ``where``, then ``let``, constant, symbol.

    Inside its own ``where`` value a name means what it meant before the
    substitution, so ``where k = k + 1`` and cycles cannot recurse forever.
    """
    name = expr.name
    if name in ctx.bound:
        return ctx.bound[name]
    if name in ctx.where and name not in ctx.expanding:
        inner = Context(ctx.where, ctx.where_scope, ctx.bound, ctx.expanding | {name}, ctx.free)
        return build(ctx.where[name], ctx.where_scope, inner)
    if name in scope:
        definition = scope[name]
        if definition.value is None:
            raise StatementError(
                f"uses {name!r}, whose definition at line {definition.line} has an error",
                column=expr.column,
            )
        if id(definition) not in ctx.memo:
            ctx.memo[id(definition)] = _let_value(definition, ctx)
        return ctx.memo[id(definition)]
    if name in _CONSTANTS:
        return _CONSTANTS[name]
    ctx.free.setdefault(name)
    return symbol(name)


def _let_value(definition: Definition, ctx: Context) -> sympy.Expr:
    """The built body of a ``let``; a problem in it has no column on the line being checked."""
    assert definition.value is not None
    try:
        return build(definition.value, definition.scope, ctx)
    except StatementError as exc:
        exc.column = 0  # a column of the definition's line, not of the statement's
        raise


def _binary(expr: Binary, scope: Scope, ctx: Context) -> sympy.Expr:
    """``+ - * / ^`` with division by zero and oversized powers refused."""
    left = build(expr.left, scope, ctx)
    right = build(expr.right, scope, ctx)
    if expr.op == "+":
        return left + right
    if expr.op == "-":
        return left - right
    if expr.op == "*":
        return left * right
    if expr.op == "/":
        if right == 0:
            raise StatementError(f"division by zero at column {expr.column}", column=expr.column)
        return left / right
    return _power(left, right, expr.column)


def _power(base: sympy.Expr, exponent: sympy.Expr, column: int) -> sympy.Expr:
    """``base ^ exponent``, refusing results too large to compute quickly.

    Any base is sized, symbolic ones included: its exact rationals (sympy
    computes ``(2x)^n`` as ``2^n x^n``) and the terms it expands to (``cancel``
    and ``simplify`` expand ``(1+pi)^n`` into ``n+1`` terms).
    """
    if base == 0 and exponent.is_negative:
        raise StatementError(
            f"division by zero at column {column} (0 to a negative power)", column=column
        )
    size = _exponent_size(exponent)
    if size > 1:
        bits = _size_bits(base) * size
        if bits > MAX_POWER_BITS:
            raise StatementError(
                f"number too large at column {column}: the power has about"
                f" {int(bits * math.log10(2)):,} digits",
                column=column,
            )
        _refuse_large_expansion(base, math.floor(size), column)
    return sympy.Pow(base, exponent)


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
        raise StatementError(
            f"number too large at column {column}: expanded, the power has coefficients"
            f" of about {int(coefficient_bits * math.log10(2)):,} digits",
            column=column,
        )
    terms = _expanded(base_terms, n)
    if terms + math.log2(coefficient_bits) > math.log2(MAX_EXPANSION_BITS):
        raise StatementError(
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


def _log(x: sympy.Expr, base: sympy.Expr | None = None) -> sympy.Expr:
    """Natural log, or log to a base."""
    return sympy.log(x) if base is None else sympy.log(x, base)


_FUNCTIONS: dict[str, Callable[..., sympy.Expr]] = {
    "log": _log,
    "log2": lambda x: sympy.log(x, 2),
    "ln": sympy.log,
    "exp": sympy.exp,
    "sqrt": sympy.sqrt,
    "abs": sympy.Abs,
    "min": sympy.Min,
    "max": sympy.Max,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
}


def _call(expr: Call, scope: Scope, ctx: Context) -> sympy.Expr:
    """A function of the closed list (the parser has checked name and arity)."""
    if expr.func == "limit":
        return _limit(expr, scope, ctx)
    args = [build(arg, scope, ctx) for arg in expr.args]
    return _FUNCTIONS[expr.func](*args)


def _limit(expr: Call, scope: Scope, ctx: Context) -> sympy.Expr:
    """``limit(body, name, point)``, taken after substitution.

    The limit variable shadows any ``let`` or ``where`` of the same name
    inside the body: it is the variable that moves, not a value.
    """
    body_ast, var_ast, point_ast = expr.args
    assert isinstance(var_ast, Name)
    var = sympy.Symbol(var_ast.name, real=True)
    point = build(point_ast, scope, ctx)
    inner = Context(
        ctx.where, ctx.where_scope, {**ctx.bound, var_ast.name: var}, ctx.expanding, ctx.free
    )
    body = build(body_ast, scope, inner)
    if point.is_infinite:
        return _one_limit(body, var, point, expr.column)
    # A limit at a finite point exists only when both one-sided limits agree.
    below = _one_limit(body, var, point, expr.column, "-")
    above = _one_limit(body, var, point, expr.column, "+")
    if below != above:
        raise StatementError(
            f"the limit at column {expr.column} does not exist: from below it is {below},"
            f" from above {above}",
            column=expr.column,
            code=ONE_SIDED_LIMIT,
        )
    return above


def _one_limit(
    body: sympy.Expr, var: sympy.Symbol, point: sympy.Expr, column: int, side: str = "+"
) -> sympy.Expr:
    result = sympy.limit(body, var, point, side)
    if result.has(sympy.Limit) or isinstance(result, sympy.AccumBounds):
        raise StatementError(
            f"the limit at column {column} does not exist or is unknown", column=column
        )
    return result


def fraction_text(value: Fraction) -> str:
    """A fraction as an author would write it (``5`` or ``0.05``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return str(float(value))
