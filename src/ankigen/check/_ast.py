"""The checker's own syntax tree: what a statement says, before any sympy.

Author text becomes these frozen dataclasses and nothing else; sympy objects
are built from them by ``_sympy``. Columns are 1-based positions in the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Num:
    """A number literal, kept exact (``0.1`` is 1/10); ``written`` as a quoted formula writes it."""

    value: Fraction
    column: int
    written: str = ""


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


@dataclass(frozen=True)
class QuotedNumber:
    """A quoted number (format section 12): the card's ``128`` or ``50%`` and its value."""

    text: str
    value: Fraction
    column: int


@dataclass(frozen=True)
class QuotedFormula:
    """A quoted formula used as an expression: its TeX and what the TeX reads as."""

    tex: str
    value: Expr
    column: int


@dataclass(frozen=True)
class ListExpr:
    """A list of values (``[1, 2, 4, 8]``, TeX ``\\{1, 2, 4, 8\\}``).

    Data for figures, and a set for ``\\in``.
    """

    items: tuple[Expr, ...]
    column: int


Expr = Num | Name | Call | Unary | Binary | QuotedNumber | QuotedFormula | ListExpr


def operands(expr: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside ``expr``, for walks over the tree.

    A quoted formula's reading is not among them: whether a walk looks into the
    card's own TeX is each walk's choice.
    """
    if isinstance(expr, Unary):
        return (expr.operand,)
    if isinstance(expr, Binary):
        return (expr.left, expr.right)
    if isinstance(expr, Call):
        return expr.args
    if isinstance(expr, ListExpr):
        return expr.items
    return ()


@dataclass(frozen=True)
class Quote:
    """A quote as a statement writes it, for matching against the item's claims."""

    text: str
    formula: bool
    column: int
    #: True for the card's equation given to 'where' (``where $k = 1$``): it may be reused.
    binding: bool = False
    #: A quoted formula whose authors' macros were expanded into ``text`` (format §17):
    #: the TeX as the check writes it, for messages ("" when it uses none).
    written: str = ""


@dataclass(frozen=True)
class Let:
    """``let NAME = EXPR``."""

    name: str
    value: Expr
    quotes: tuple[Quote, ...] = ()


@dataclass(frozen=True)
class Binding:
    """One ``NAME = EXPR`` of a ``where`` clause; ``column`` is the name's."""

    name: str
    value: Expr
    column: int = 0
    #: True for the card's own equation (``where $T_{comm} = 0$``).
    quoted: bool = False


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
    for messages. A quoted relation ``$a = b \\approx c$`` is one assertion
    whose further links are in ``chain`` (``("~=", c)``: ``b ~= c``).
    ``quotes`` lists every quote of the statement.
    """

    left: Expr
    op: str
    right: Expr
    within: Fraction | None
    where: tuple[Binding, ...]
    loop: Loop | None
    text: str
    chain: tuple[tuple[str, Expr], ...] = ()
    quotes: tuple[Quote, ...] = ()
    #: Tolerance of a quoted ``\approx`` with neither ``within`` nor a written number.
    default_within: Fraction | None = None
    #: The quoted formula when the assertion is a quoted relation (``$S = k/2$``).
    relation: str = ""

    def links(self) -> list[tuple[Expr, str, Expr]]:
        """Each comparison of the assertion: one, or one per link of a chain."""
        result = [(self.left, self.op, self.right)]
        for op, right in self.chain:
            result.append((result[-1][2], op, right))
        return result


@dataclass(frozen=True)
class Cite:
    """``cite QUOTE, ...``: a measurement or definition; asserts nothing."""

    quotes: tuple[Quote, ...]


Statement = Let | Assert | Cite
