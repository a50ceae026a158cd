"""The checker's own syntax tree: what a statement says, before any sympy.

Author text becomes these frozen dataclasses and nothing else; sympy objects
are built from them by ``_sympy``. Columns are 1-based positions in the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Num:
    """A number literal, kept exact (``0.1`` is 1/10)."""

    value: Fraction
    column: int


@dataclass(frozen=True)
class Name:
    """A name: a ``let`` definition, a constant, or a free symbol."""

    name: str
    column: int


@dataclass(frozen=True)
class Call:
    """A call of one of the closed list of functions."""

    func: str
    args: tuple[Expr, ...]
    column: int


@dataclass(frozen=True)
class Unary:
    """Unary ``-`` or ``+``."""

    op: str
    operand: Expr
    column: int


@dataclass(frozen=True)
class Binary:
    """A binary operation: ``+ - * /`` or ``^`` (``**`` is the same operator)."""

    op: str
    left: Expr
    right: Expr
    column: int


Expr = Num | Name | Call | Unary | Binary


@dataclass(frozen=True)
class Let:
    """``let NAME = EXPR``."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Binding:
    """One ``NAME = EXPR`` of a ``where`` clause."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Loop:
    """``for NAME in START..STOP``, both ends included."""

    name: str
    start: int
    stop: int


@dataclass(frozen=True)
class Assert:
    """``assert EXPR OP EXPR [within P%] [where ...] [for ...]``.

    ``text`` is the statement as written, without ``assert`` and comment,
    for messages.
    """

    left: Expr
    op: str
    right: Expr
    within: Fraction | None
    where: tuple[Binding, ...]
    loop: Loop | None
    text: str


Statement = Let | Assert
