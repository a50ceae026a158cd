"""Shared state of the quoted-formula parser: tokens, a cursor, the command tables."""

from __future__ import annotations

from dataclasses import dataclass

from ankigen.diagnostics import Code

from ._ast import Expr
from ._errors import StatementSyntaxError
from ._tex_lexer import TEX_SYNTAX, TexToken

UNKNOWN_COMMAND = Code.CHECK_TEX_COMMAND
#: Deepest nesting accepted in a quoted formula.
MAX_DEPTH = 50
#: Deepest syntax tree accepted: nesting, plus one level for each operator of a chain.
MAX_HEIGHT = 200

RELATIONS = {
    "=": "==",
    "<": "<",
    ">": ">",
    "approx": "~=",
    "neq": "!=",
    "ne": "!=",
    "le": "<=",
    "leq": "<=",
    "ge": ">=",
    "geq": ">=",
    "lt": "<",
    "gt": ">",
    "sim": "~=",
    "in": "in",
    # read, so that a quote matches them by notation, but never decided (cite them)
    "to": "->",
    "implies": "=>",
}
#: Relations a check reads but cannot decide: a quoted formula holding one is cited.
UNDECIDED = {"->": "\\to", "=>": "\\implies"}
GREEK = frozenset(
    {
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "varepsilon",
        "zeta",
        "eta",
        "theta",
        "vartheta",
        "iota",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "pi",
        "varpi",
        "rho",
        "varrho",
        "sigma",
        "varsigma",
        "tau",
        "upsilon",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
        "Gamma",
        "Delta",
        "Theta",
        "Lambda",
        "Xi",
        "Pi",
        "Sigma",
        "Upsilon",
        "Phi",
        "Psi",
        "Omega",
    }
)
FUNCTIONS = {"log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan"}
#: Big operators: ``\\sum_{i=a}^{b}`` and ``\\prod_{i=a}^{b}``.
SERIES = {"sum": "sum", "prod": "product"}
FRACTIONS = frozenset({"frac", "dfrac", "tfrac"})
PRODUCTS = {"cdot": "*", "times": "*"}


@dataclass(frozen=True)
class TexReading:
    """A quoted formula read: its terms and the relations between them (none: an expression)."""

    terms: tuple[Expr, ...]
    relations: tuple[str, ...]


class TexCursor:
    """The tokens of one quoted formula and a cursor over them.

    The grammar's rules that commands need (``expr``, ``power``, ``script``)
    are defined by the parser in ``_tex``.
    """

    def __init__(self, tokens: list[TexToken]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0
        self.height = 0

    @property
    def peek(self) -> TexToken:
        """The next token, not consumed."""
        return self.tokens[self.pos]

    def advance(self) -> TexToken:
        """Consume and return the next token."""
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def at(self, kind: str, text: str | None = None) -> bool:
        """True when the next token has this kind (and text)."""
        return self.peek.kind == kind and (text is None or self.peek.text == text)

    def error(self, message: str, token: TexToken | None = None) -> StatementSyntaxError:
        """A syntax error at ``token`` (default: the next one)."""
        where = token or self.peek
        return StatementSyntaxError(
            where.column, f"{message} in the quoted formula", code=TEX_SYNTAX
        )

    def expect(self, kind: str, text: str) -> TexToken:
        """Consume a token of this kind and text, or raise a syntax error."""
        if not self.at(kind, text):
            shown = "\\" + text if kind == "cmd" else text
            found = "its end" if self.peek.kind == "end" else repr(self.shown(self.peek))
            raise self.error(f"expected {shown!r}, found {found}")
        return self.advance()

    @staticmethod
    def shown(token: TexToken) -> str:
        """A token as written: ``\\frac`` for a command."""
        return "\\" + token.text if token.kind == "cmd" else token.text

    # -- relations and expressions -----------------------------------------

    def found(self) -> str:
        """How the next token is named in a message."""
        return "its end" if self.peek.kind == "end" else repr(self.shown(self.peek))

    def enter(self) -> None:
        """One nesting level deeper; refused past ``MAX_DEPTH`` (undone by ``leave``)."""
        self.depth += 1
        self.chained()
        if self.depth > MAX_DEPTH:
            raise self.error(f"nesting deeper than {MAX_DEPTH} levels")

    def leave(self) -> None:
        """Back out of the level ``enter`` opened."""
        self.depth -= 1
        self.height -= 1

    def chained(self) -> None:
        """One more level of the tree (an operator of a chain such as ``1+1+…+1``, or a
        nesting); refused past ``MAX_HEIGHT`` (the caller takes it back when done)."""
        self.height += 1
        if self.height > MAX_HEIGHT:
            raise self.error(
                f"formula more than {MAX_HEIGHT} levels deep (each operator of a chain "
                "such as 1+1+…+1 is one level)"
            )

    def expr(self) -> Expr:
        """``[+|-] run {(+|-) run}`` (defined by the parser)."""
        raise NotImplementedError

    def power(self) -> Expr:
        """``atom [^ script]`` (defined by the parser)."""
        raise NotImplementedError

    def product(self) -> Expr:
        """Juxtaposed powers (defined by the parser)."""
        raise NotImplementedError

    def script(self) -> Expr:
        """A braced group or one token (defined by the parser)."""
        raise NotImplementedError
