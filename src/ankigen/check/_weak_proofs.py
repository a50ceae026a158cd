"""Weak proofs (format section 18): warnings for checks that prove less than they seem.

- a ``within`` over 10% (``AG230``), which accepts almost any value;
- a circular ``where`` (``AG231``): ``assert $L = 4$ where L = 4``;
- a relation the card states in general proved at one point of the check's
  own choosing (``AG232``): ``assert $\\lambda < \\mu$ where lam = 1, mu = 2``;
- at claim level ``all``, a number written in a check that is a number the
  card shows (``AG233``): the premise must be a quote, so that changing it
  changes the proof.

All are warnings (errors with ``--strict``).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from ankigen.diagnostics import Code

from ._ast import (
    Assert,
    Binary,
    Binding,
    Expr,
    Let,
    Name,
    Num,
    QuotedFormula,
    QuotedNumber,
    Unary,
    operands,
)
from ._expressions import CONSTANTS
from ._soundness import names_in, reachable_names, sides

if TYPE_CHECKING:
    from ._occurrences import Occurrences
    from ._sympy import Scope

#: Code of the warning for a ``within`` looser than ``MAX_WITHIN``.
LOOSE_WITHIN = Code.LOOSE_WITHIN
#: Code of the warning for a ``where`` that gives a name the value it is compared with.
CIRCULAR_WHERE = Code.CIRCULAR_WHERE
#: Code of the warning for a general relation of the card proved at one point only.
ONE_POINT = Code.ONE_POINT_PROOF
#: Loosest ``within`` accepted without a warning (format section 18).
MAX_WITHIN = Fraction(1, 10)


def loose_within(statement: Assert) -> str | None:
    """The message for a ``within`` over 10%, or None."""
    if statement.within is None or statement.within <= MAX_WITHIN:
        return None
    return LOOSE_WITHIN.message(percent=float(statement.within * 100), text=statement.text)


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
            message = CIRCULAR_WHERE.message(name=binding.name, text=statement.text)
            problems.append((binding, message))
    return problems


def proved_at_one_point(statement: Assert, scope: Scope) -> str | None:
    """The message for a quoted relation between quantities (free symbols on two sides)
    that 'where' fixes to numbers of its own (not quotes of the card), leaving no symbol
    free: one point, not the claim."""
    if not statement.relation or statement.loop is not None or not statement.where:
        return None
    free = [
        {name for name in names_in(side) if name not in scope and name not in CONSTANTS}
        for side in sides(statement)
    ]
    if sum(bool(names) for names in free) < 2 or any(map(_plain_number, sides(statement))):
        return None  # a value (L = 4), or one case worked out (n = m/M = 2): no general claim
    stated = set().union(*free)
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
    return ONE_POINT.message(
        relation=statement.relation, names=names, text=statement.text, points=", ".join(own_points)
    )


def _bare_name(expr: Expr) -> str | None:
    if isinstance(expr, QuotedFormula):
        return _bare_name(expr.value)
    return expr.name if isinstance(expr, Name) else None


def _same(value: Expr, other: Expr) -> bool:
    """The same number, written alike or otherwise (``9/10`` and ``0.9``).

    Only a number counts: ``where V_2 = V_1/2`` beside the card's
    ``$V_2 = \\frac{V_1}{2}$`` substitutes the card's own definition, which
    is how an author checks that a formula is the deck's; a computation
    (``where M = 2*1 + 16``) is a proof of its own.
    """
    from ._exact import exact_value

    if not (_plain_number(value) and _plain_number(other)):
        return False
    left, right = exact_value(value), exact_value(other)
    return left is not None and left == right


def _plain_number(expr: Expr) -> bool:
    """A number as written: ``4``, ``-4``, ``0.9``, ``9/10``."""
    if isinstance(expr, QuotedFormula):
        return _plain_number(expr.value)
    if isinstance(expr, Unary):
        return isinstance(expr.operand, Num)
    if isinstance(expr, Binary) and expr.op == "/":
        return isinstance(expr.left, Num) and isinstance(expr.right, Num)
    return isinstance(expr, Num)


def _quotes_the_card(expr: Expr) -> bool:
    if isinstance(expr, QuotedNumber | QuotedFormula):
        return True
    return any(_quotes_the_card(operand) for operand in operands(expr))


#: Code of the warning for a number literal that equals a number the card shows.
UNBOUND_PREMISE = Code.UNBOUND_PREMISE


def literals_in(expr: Expr) -> Iterator[Num]:
    """The number literals of an expression (not those inside a quoted formula: quotes)."""
    if isinstance(expr, Num):
        if not expr.written:  # a number of a quoted formula is the card's own
            yield expr
    else:
        for operand in operands(expr):
            yield from literals_in(operand)


def statement_literals(statement: Assert | Let) -> Iterator[Num]:
    """Every number literal a statement writes, sides, chain and ``where`` values.

    The sides of a quoted relation (``assert $E = \\frac{1}{2} m v^2$``) are the
    card's formula: every number in them, an exponent too, is the quote's.
    """
    if isinstance(statement, Let):
        yield from literals_in(statement.value)
        return
    for side in () if statement.relation else sides(statement):
        yield from literals_in(side)
    for binding in statement.where:
        if not binding.quoted:
            yield from literals_in(binding.value)


def unbound_premise_message(literal: Num, shown: str, line: int) -> str:
    """The message for a literal equal to the card's number ``shown`` (at ``line``)."""
    return UNBOUND_PREMISE.message(value=literal.value, shown=shown, line=line)


def weak_proof_warnings(statement: Assert, scope: Scope) -> list[tuple[int, str, str]]:
    """Each weak-proof warning of an assertion: (column, message, code); 0 is the statement's."""
    found: list[tuple[int, str, str]] = []
    loose = loose_within(statement)
    if loose is not None:
        found.append((-1, loose, LOOSE_WITHIN))
    circular = circular_where(statement)
    found += [(binding.column, message, CIRCULAR_WHERE) for binding, message in circular]
    one_point = None if circular else proved_at_one_point(statement, scope)
    if one_point is not None:
        found.append((0, one_point, ONE_POINT))
    return found


def unbound_premises(
    statement: Assert | Let, occurrences: Occurrences
) -> list[tuple[int, str, str]]:
    """(column, message, code) for each literal that is a number the card shows."""
    found: list[tuple[int, str, str]] = []
    for literal in statement_literals(statement):
        claim = occurrences.shown_number(literal.value)
        if claim is not None:
            from ._coverage import shown_claim

            message = unbound_premise_message(literal, shown_claim(claim), claim.line)
            found.append((literal.column, message, UNBOUND_PREMISE))
    return found
