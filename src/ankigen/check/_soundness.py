"""Assertions that hold but prove nothing: unused ``where`` names, literal-only checks,
a ``within`` over 10%, a ``where`` that gives a name the value it is compared with,
a general relation of the card proved at one point (format section 18).

All are warnings (errors with ``--strict``): the statement is true, yet it
says nothing about the card or does not test what its author meant.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from ._ast import (
    Assert,
    Binary,
    Binding,
    Call,
    Expr,
    Let,
    ListExpr,
    Name,
    Num,
    QuotedFormula,
    QuotedNumber,
    Unary,
)
from ._expressions import CONSTANTS

if TYPE_CHECKING:  # importing _sympy loads sympy, which this module does not need
    from ._sympy import Scope

#: Code of the warning for a ``where`` name that occurs on neither side.
UNUSED_WHERE = "AG206"
#: Code of the warning for an assertion that compares only literals.
LITERAL_ONLY = "AG207"


def names_in(expr: Expr) -> Iterator[str]:
    """Every name an expression uses, in order (constants included)."""
    if isinstance(expr, Name):
        yield expr.name
    elif isinstance(expr, Unary):
        yield from names_in(expr.operand)
    elif isinstance(expr, Binary):
        yield from names_in(expr.left)
        yield from names_in(expr.right)
    elif isinstance(expr, Call):
        for arg in expr.args:
            yield from names_in(arg)
    elif isinstance(expr, ListExpr):
        for item in expr.items:
            yield from names_in(item)
    elif isinstance(expr, QuotedFormula):
        yield from names_in(expr.value)


def _sides(statement: Assert) -> list[Expr]:
    return [statement.left, statement.right, *(right for _, right in statement.chain)]


def reachable_names(statement: Assert, scope: Scope) -> set[str]:
    """Names the sides use, directly or through ``let`` bodies and used ``where`` values."""
    where: Mapping[str, Binding] = {b.name: b for b in statement.where}
    todo = [name for side in _sides(statement) for name in names_in(side)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in where:
            todo.extend(names_in(where[name].value))
        definition = scope.get(name)
        if definition is not None and definition.value is not None:
            todo.extend(names_in(definition.value))
    return seen


def unused_where(statement: Assert, scope: Scope) -> list[tuple[Binding, str]]:
    """Each ``where`` binding whose name occurs on neither side, with the message."""
    if not statement.where:
        return []
    used = reachable_names(statement, scope)
    if statement.loop is not None:
        used.add(statement.loop.name)
    # The names the clause binds itself are not what a misspelt one meant.
    bound = {binding.name for binding in statement.where}
    candidates = sorted((used | set(scope)) - set(CONSTANTS) - bound)
    problems: list[tuple[Binding, str]] = []
    for binding in statement.where:
        if binding.name in used:
            continue
        close = difflib.get_close_matches(binding.name, candidates, n=1, cutoff=0.6)
        hint = (
            f"did you mean {close[0]!r}?" if close else "remove it, or use the name it stands for"
        )
        message = (
            f"'where {binding.name} = ...' substitutes a name that occurs on neither side"
            f" of '{statement.text}' (nor in the names they use): {hint}"
        )
        problems.append((binding, message))
    return problems


def compares_only_literals(statement: Assert) -> bool:
    """True for an assertion with no name and no quote on any side (``4/4 == 1``)."""
    if statement.quotes:
        return False
    return not any(name not in CONSTANTS for side in _sides(statement) for name in names_in(side))


LITERAL_MESSAGE = (
    "'{text}' compares only numbers written in the check, so it proves nothing about"
    " the card: quote the card's numbers (`4` for a 4 on the card) or compare names"
)


#: Code of the warning for a ``within`` looser than ``MAX_WITHIN``.
LOOSE_WITHIN = "AG230"
#: Code of the warning for a ``where`` that gives a name the value it is compared with.
CIRCULAR_WHERE = "AG231"
#: Code of the warning for a general relation of the card proved at one point only.
ONE_POINT = "AG232"
#: Loosest ``within`` accepted without a warning (format section 18).
MAX_WITHIN = Fraction(1, 10)


def loose_within(statement: Assert) -> str | None:
    """The message for a ``within`` over 10%, or None."""
    if statement.within is None or statement.within <= MAX_WITHIN:
        return None
    return (
        f"'within {float(statement.within * 100):g}%' in '{statement.text}' accepts almost any"
        " value, so it proves little: give the precision the card claims (at most 10%),"
        " or none, so the card's last written digit sets it"
    )


def circular_where(statement: Assert) -> list[tuple[Binding, str]]:
    """Each ``where`` binding that gives a name the very value it is compared with."""
    where = {binding.name: binding for binding in statement.where}
    problems: list[tuple[Binding, str]] = []
    for left, _, right in statement.links():
        for side, other in ((left, right), (right, left)):
            name = _bare_name(side)
            binding = where.get(name) if name is not None else None
            if binding is None or not _same(binding.value, other):
                continue
            message = (
                f"'where {binding.name} = ...' gives {binding.name} the value it is compared with"
                f" in '{statement.text}', so the assertion holds whatever the card says:"
                f" derive {binding.name} from the deck's formulas or other quotes instead"
            )
            problems.append((binding, message))
    return problems


def proved_at_one_point(statement: Assert, scope: Scope) -> str | None:
    """The message for a quoted relation with free symbols that 'where' fixes to numbers
    of its own (not quotes of the card), leaving no symbol free: one point, not the claim."""
    if not statement.relation or statement.loop is not None or not statement.where:
        return None
    stated = {
        name
        for side in _sides(statement)
        for name in names_in(side)
        if name not in scope and name not in CONSTANTS
    }
    bound = {binding.name for binding in statement.where}
    unbound = reachable_names(statement, scope) - set(scope) - set(CONSTANTS) - bound
    if not stated or unbound:
        return None
    own_points = [
        binding.name
        for binding in statement.where
        if not binding.quoted
        and not _quotes_the_card(binding.value)
        and not set(names_in(binding.value)) - set(CONSTANTS)
    ]
    if not own_points:
        return None  # the card itself gives the point, or formulas do
    names = ", ".join(sorted(stated))
    return (
        f"${statement.relation}$ states a relation of {names}, but '{statement.text}'"
        f" proves it only at one point ({', '.join(own_points)} fixed by 'where'): prove it"
        " for every value (no 'where', or 'for' over a range), or quote the card's own values"
    )


def _bare_name(expr: Expr) -> str | None:
    if isinstance(expr, QuotedFormula):
        return _bare_name(expr.value)
    return expr.name if isinstance(expr, Name) else None


def _same(value: Expr, other: Expr) -> bool:
    """The same expression, or two sums of literals worth the same (``9/10`` and ``0.9``)."""
    if _shape(value) == _shape(other):
        return True
    from ._exact import exact_value

    left, right = exact_value(value), exact_value(other)
    return left is not None and left == right


def _shape(expr: Expr) -> str:
    """An expression without its columns, for comparing two of them."""
    from ._notation import canonical

    return canonical(expr)


def _quotes_the_card(expr: Expr) -> bool:
    if isinstance(expr, QuotedNumber | QuotedFormula):
        return True
    if isinstance(expr, Unary):
        return _quotes_the_card(expr.operand)
    if isinstance(expr, Binary):
        return _quotes_the_card(expr.left) or _quotes_the_card(expr.right)
    if isinstance(expr, Call):
        return any(_quotes_the_card(arg) for arg in expr.args)
    if isinstance(expr, ListExpr):
        return any(_quotes_the_card(item) for item in expr.items)
    return False


#: Code of the warning for a number literal that equals a number the card shows.
UNBOUND_PREMISE = "AG233"


def literals_in(expr: Expr) -> Iterator[Num]:
    """The number literals of an expression (not those inside a quoted formula: quotes)."""
    if isinstance(expr, Num):
        if not expr.written:  # a number of a quoted formula is the card's own
            yield expr
    elif isinstance(expr, Unary):
        yield from literals_in(expr.operand)
    elif isinstance(expr, Binary):
        yield from literals_in(expr.left)
        yield from literals_in(expr.right)
    elif isinstance(expr, Call):
        for arg in expr.args:
            yield from literals_in(arg)
    elif isinstance(expr, ListExpr):
        for item in expr.items:
            yield from literals_in(item)


def statement_literals(statement: Assert | Let) -> Iterator[Num]:
    """Every number literal a statement writes, sides, chain and ``where`` values."""
    if isinstance(statement, Let):
        yield from literals_in(statement.value)
        return
    for side in _sides(statement):
        yield from literals_in(side)
    for binding in statement.where:
        if not binding.quoted:
            yield from literals_in(binding.value)


def unbound_premise_message(literal: Num, shown: str, line: int) -> str:
    """The message for a literal equal to the card's number ``shown`` (at ``line``)."""
    return (
        f"the number {literal.value} written in this check is the card's {shown} (line {line}):"
        f" write it as the quote {shown}, so that a changed premise changes the proof"
    )
