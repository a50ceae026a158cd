"""Assertions that hold but prove nothing: unused ``where`` names, literal-only checks.

The weak proofs of format section 18 are ``_weak_proofs``'s. Both are
warnings (errors with ``--strict``): the statement is true, yet it says
nothing about the card or does not test what its author meant.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ankigen.diagnostics import Code

from ._ast import (
    Assert,
    Binding,
    Expr,
    Name,
    QuotedFormula,
    operands,
)
from ._expressions import CONSTANTS

if TYPE_CHECKING:  # importing _sympy loads sympy, which this module does not need
    from ._sympy import Scope

#: Code of the warning for a ``where`` name that occurs on neither side.
UNUSED_WHERE = Code.UNUSED_WHERE
#: Code of the warning for an assertion that compares only literals.
LITERAL_ONLY = Code.LITERALS_ONLY


def names_in(expr: Expr) -> Iterator[str]:
    """Every name an expression uses, in order (constants included)."""
    if isinstance(expr, Name):
        yield expr.name
    elif isinstance(expr, QuotedFormula):
        yield from names_in(expr.value)
    else:
        for operand in operands(expr):
            yield from names_in(operand)


def sides(statement: Assert) -> list[Expr]:
    return [statement.left, statement.right, *(right for _, right in statement.chain)]


def reachable_names(statement: Assert, scope: Scope) -> set[str]:
    """Names the sides use, directly or through ``let`` bodies and used ``where`` values."""
    where: Mapping[str, Binding] = {b.name: b for b in statement.where}
    todo = [name for side in sides(statement) for name in names_in(side)]
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
        message = UNUSED_WHERE.message(name=binding.name, text=statement.text, hint=hint)
        problems.append((binding, message))
    return problems


def compares_only_literals(statement: Assert) -> bool:
    """True for an assertion with no name and no quote on any side (``4/4 == 1``)."""
    if statement.quotes:
        return False
    return not any(name not in CONSTANTS for side in sides(statement) for name in names_in(side))
