"""Build sympy objects from the checker's syntax tree, guarding their size.

Names are resolved here, at the syntax-tree level, rather than with sympy's
``subs``: a ``where`` value or ``let`` body is built in place of the name, so
every power and product sympy ever sees passes through a size guard first
(``_sizes``; ``subs`` could make sympy compute ``10^(10^10)`` before any check).

Free symbols are created positive (real and > 0). The decks describe
quantities (times, sizes, device counts, rates), and the assumption lets
``simplify`` prove what authors mean: ``sqrt(k^2) == k``, ``log(a*b) ==
log(a) + log(b)``. A ``limit`` variable is only real, so a limit towards a
negative point still makes sense.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from ankigen.diagnostics import Code

from ._ast import Binary, Call, Expr, ListExpr, Name, Num, QuotedFormula, QuotedNumber, Unary
from ._errors import StatementError, undecided
from ._sizes import refuse_large_power, refuse_large_product

#: Code of the error for a limit whose one-sided limits differ.
ONE_SIDED_LIMIT = Code.ONE_SIDED_LIMIT
#: Largest integer whose factorial (or binomial's top) is computed exactly.
MAX_FACTORIAL = 10_000


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
    if isinstance(expr, ListExpr):
        return sympy.Tuple(*(build(item, scope, ctx) for item in expr.items))
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
    base, _, index = name.rpartition("_")
    if base and index in ctx.bound:
        # g_i inside sum(..., i, ...): the i-th g, a term that depends on i.
        return sympy.Function(base)(ctx.bound[index])
    if name in ctx.where and name not in ctx.expanding:
        inner = Context(ctx.where, ctx.where_scope, ctx.bound, ctx.expanding | {name}, ctx.free)
        return build(ctx.where[name], ctx.where_scope, inner)
    if name in scope:
        definition = scope[name]
        if definition.value is None:
            raise undecided(
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
    if expr.op in ("*", "/"):
        refuse_large_product(left, right, expr.op, expr.column)
    if expr.op == "*":
        return left * right
    if expr.op == "/":
        if right == 0:
            raise undecided(f"division by zero at column {expr.column}", column=expr.column)
        return left / right
    return _power(left, right, expr.column)


def _power(base: sympy.Expr, exponent: sympy.Expr, column: int) -> sympy.Expr:
    """``base ^ exponent``, refusing results too large to compute quickly (``_sizes``)."""
    if base == 0 and exponent.is_negative:
        raise undecided(
            f"division by zero at column {column} (0 to a negative power)", column=column
        )
    refuse_large_power(base, exponent, column)
    return sympy.Pow(base, exponent)


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
    "factorial": sympy.factorial,
    "binomial": sympy.binomial,
}


def _call(expr: Call, scope: Scope, ctx: Context) -> sympy.Expr:
    """A function of the closed list (the parser has checked name and arity)."""
    if expr.func == "limit":
        return _limit(expr, scope, ctx)
    if expr.func in ("sum", "product"):
        return _series(expr, scope, ctx)
    args = [build(arg, scope, ctx) for arg in expr.args]
    if expr.func in ("factorial", "binomial"):
        _small_enough(args[0], expr)
    if expr.func == "count":
        if not isinstance(args[0], sympy.Tuple):
            raise undecided(
                f"count at column {expr.column} takes a list, as in count([1, 2, 4])",
                column=expr.column,
            )
        return sympy.Integer(len(args[0]))
    return _FUNCTIONS[expr.func](*args)


def _small_enough(value: sympy.Expr, expr: Call) -> None:
    """Refuse a factorial or binomial of a number too large to compute quickly."""
    if value.is_number and value.is_finite and abs(value) > MAX_FACTORIAL:
        raise undecided(
            f"number too large at column {expr.column}: {expr.func} of more than {MAX_FACTORIAL:,}",
            column=expr.column,
        )


def _series(expr: Call, scope: Scope, ctx: Context) -> sympy.Expr:
    """``sum(body, i, a, b)`` or ``product(...)``: ``i`` runs from a to b (``g_i`` is its term)."""
    body_ast, var_ast, start_ast, stop_ast = expr.args
    assert isinstance(var_ast, Name)
    var = sympy.Symbol(var_ast.name, integer=True)
    start, stop = build(start_ast, scope, ctx), build(stop_ast, scope, ctx)
    if (stop - start).is_number and abs(stop - start) > MAX_FACTORIAL:
        raise undecided(
            f"{expr.func} at column {expr.column} runs over more than {MAX_FACTORIAL:,} values;"
            " give its bounds as names to sum symbolically",
            column=expr.column,
        )
    inner = Context(
        ctx.where, ctx.where_scope, {**ctx.bound, var_ast.name: var}, ctx.expanding, ctx.free
    )
    body = build(body_ast, scope, inner)
    kind = sympy.Sum if expr.func == "sum" else sympy.Product
    result = kind(body, (var, start, stop)).doit()
    return sympy.simplify(result) if result.is_number else result


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
        message = ONE_SIDED_LIMIT.message(column=expr.column, below=below, above=above)
        raise StatementError(message, column=expr.column, code=ONE_SIDED_LIMIT)
    return above


def _one_limit(
    body: sympy.Expr, var: sympy.Symbol, point: sympy.Expr, column: int, side: str = "+"
) -> sympy.Expr:
    result = sympy.limit(body, var, point, side)
    if result.has(sympy.Limit) or isinstance(result, sympy.AccumBounds):
        raise undecided(f"the limit at column {column} does not exist or is unknown", column=column)
    return result


def fraction_text(value: Fraction) -> str:
    """A fraction as an author would write it (``5`` or ``0.05``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return str(float(value))
