"""Recursive-descent parsing of check expressions, quotes of the card included.

Grammar (``^`` and ``**`` are one operator, right-associative, tighter than
unary minus, so ``-x^2`` is ``-(x^2)`` as in Python and in mathematics)::

    expr      := term {('+' | '-') term}
    term      := unary {('*' | '/') unary}
    unary     := ('-' | '+') unary | power
    power     := postfix [('^' | '**') unary]
    postfix   := atom {'!'}                        (factorial)
    atom      := NUMBER | QUOTE | '$' TEX '$' | NAME
               | FUNC '(' expr {',' expr} ')' | '(' expr ')'
               | '[' expr {',' expr} ']'           (a list: values for figures)

The function list is closed and checked here, so an unknown call never gets
as far as sympy. A quoted formula is read by ``_tex``; every quote a
statement makes is recorded in ``quotes`` for matching against the item.
"""

from __future__ import annotations

from collections.abc import Callable

from ankigen.syntax.cloze import strip_markers

from ._ast import (
    Binary,
    Call,
    Expr,
    ListExpr,
    Name,
    Num,
    Quote,
    QuotedFormula,
    QuotedNumber,
    Unary,
)
from ._errors import StatementError, StatementSyntaxError, undecided
from ._lexer import Token, tokenize
from ._macro_quotes import NO_EXPANSIONS, Expansions, formula_quote, in_expansion
from ._tex import read_tex
from ._tex_base import TexReading
from ._tex_lexer import TEX_SYNTAX

#: Deepest nesting of parentheses, calls, unary signs and powers accepted.
MAX_DEPTH = 50
#: Deepest syntax tree accepted: nesting, plus one level for each operator of a chain
#: (``1+1+…+1`` is a tree as deep as it has operators, walked recursively later).
MAX_HEIGHT = 200

CONSTANTS = ("pi", "e", "oo")
#: Each function with its fewest and most arguments (None: no upper bound).
FUNCTIONS: dict[str, tuple[int, int | None]] = {
    "log": (1, 2),
    "log2": (1, 1),
    "ln": (1, 1),
    "exp": (1, 1),
    "sqrt": (1, 1),
    "abs": (1, 1),
    "min": (2, None),
    "max": (2, None),
    "sin": (1, 1),
    "cos": (1, 1),
    "tan": (1, 1),
    "limit": (3, 3),
    "factorial": (1, 1),
    "binomial": (2, 2),
    "sum": (4, 4),
    "product": (4, 4),
    "count": (1, 1),
}
#: Functions whose second argument names the variable that runs (``sum(i^2, i, 1, n)``).
BINDERS = ("limit", "sum", "product")
# Words of the statement grammar that the lexer lets through but that are
# never names (the lexer refuses every other Python keyword).
KEYWORDS = ("assert", "for", "in")


def describe(token: Token) -> str:
    """How a token is named in a message."""
    if token.kind == "end":
        return "end of statement"
    if token.kind == "quote":
        return f"`{token.text}`"
    if token.kind == "tex":
        return f"${token.text}$"
    return repr(token.text)


class ExpressionParser:
    """Parser state for one statement: tokens, a cursor, and the quotes read."""

    def __init__(self, code: str, expansions: Expansions = NO_EXPANSIONS) -> None:
        """``code``: one statement; ``expansions``: its quoted formulas that use an
        author's macro, each with its expansion (``CodeBlock.expansions``)."""
        self.code = code
        self.expansions = expansions
        self.tokens = tokenize(code)
        self.pos = 0
        self.depth = 0
        self.height = 0
        self.quotes: list[Quote] = []

    # -- token helpers -------------------------------------------------------

    @property
    def peek(self) -> Token:
        """The next token, not consumed."""
        return self.tokens[self.pos]

    def advance(self) -> Token:
        """Consume and return the next token."""
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def at(self, kind: str, text: str | None = None) -> bool:
        """True when the next token has this kind (and text)."""
        token = self.peek
        return token.kind == kind and (text is None or token.text == text)

    def expect(self, kind: str, text: str | None = None, what: str = "") -> Token:
        """Consume a token of this kind (and text) or raise a syntax error."""
        if not self.at(kind, text):
            wanted = what or repr(text)
            raise StatementSyntaxError(
                self.peek.column, f"expected {wanted}, found {describe(self.peek)}"
            )
        return self.advance()

    def error(self, message: str) -> StatementSyntaxError:
        """A syntax error at the next token."""
        return StatementSyntaxError(self.peek.column, message)

    # -- quotes --------------------------------------------------------------

    def quoted_number(self) -> QuotedNumber:
        """A `` `NUMBER` `` quote: the card's number and its value."""
        token = self.advance()
        assert token.value is not None
        self.quotes.append(Quote(token.text, False, token.column))
        return QuotedNumber(token.text, token.value, token.column)

    def quoted_formula(self) -> tuple[Token, TexReading]:
        """A ``$TEX$`` quote, read by the TeX grammar."""
        token = self.advance()
        quote = formula_quote(token, self.expansions)
        self.quotes.append(quote)
        # The TeX starts after the '$' (or '$$') at the token's column.
        offset = 2 if self.code.startswith("$$", token.column - 1) else 1
        try:
            return token, read_tex(strip_markers(quote.text), token.column + offset)
        except StatementError as exc:
            if not quote.written:
                raise
            raise in_expansion(exc, quote) from None

    # -- expressions ---------------------------------------------------------

    def expr(self) -> Expr:
        """``term {('+' | '-') term}``, left-associative."""
        return self.chain(self.term, ("+", "-"))

    def term(self) -> Expr:
        """``unary {('*' | '/') unary}``, left-associative."""
        return self.chain(self.unary, ("*", "/"))

    def chain(self, operand: Callable[[], Expr], operators: tuple[str, ...]) -> Expr:
        """Operands joined by ``operators``, left-associative: each one a level deeper."""
        result = operand()
        levels = 0
        try:
            while self.at("op") and self.peek.text in operators:
                op = self.advance()
                levels += 1
                self.deeper(levels=1, nesting=0)
                result = Binary(op.text, result, operand(), op.column)
            return result
        finally:
            self.height -= levels

    def deeper(self, *, levels: int, nesting: int) -> None:
        """Count a level of the tree (``nesting``: of parentheses, signs, calls); refuse past
        the limits, before the tree is built or walked."""
        self.depth += nesting
        self.height += levels
        if self.depth > MAX_DEPTH:
            raise self.error(f"expression nested more than {MAX_DEPTH} levels deep")
        if self.height > MAX_HEIGHT:
            raise self.error(
                f"expression more than {MAX_HEIGHT} levels deep (each operator of a chain "
                "such as 1+1+…+1 is one level); split it into 'let' names"
            )

    def unary(self) -> Expr:
        """Signs, then a power; every nesting level passes through here."""
        try:
            self.deeper(levels=1, nesting=1)
            if self.at("op") and self.peek.text in ("-", "+"):
                op = self.advance()
                return Unary(op.text, self.unary(), op.column)
            return self.power()
        finally:
            self.depth -= 1
            self.height -= 1

    def power(self) -> Expr:
        """``postfix [^ unary]``: the exponent may carry a sign and is right-associative."""
        base = self.atom()
        while self.at("op", "!"):
            bang = self.advance()
            base = Call("factorial", (base,), bang.column)
        if self.at("op") and self.peek.text in ("^", "**"):
            op = self.advance()
            return Binary("^", base, self.unary(), op.column)
        return base

    def atom(self) -> Expr:
        """A number, a quote, a name, a call or a parenthesised expression."""
        token = self.peek
        if token.kind == "num":
            self.advance()
            assert token.value is not None
            return Num(token.value, token.column)
        if token.kind == "quote":
            return self.quoted_number()
        if token.kind == "tex":
            return self.formula_value()
        if token.kind == "name":
            self.advance()
            if self.at("op", "("):
                return self.call(token)
            if self.at("op", "["):
                raise self.error("indexing is not allowed")
            return self.name(token)
        if token.kind == "op" and token.text == "(":
            self.advance()
            inner = self.expr()
            self.expect("op", ")")
            return inner
        if token.kind == "op" and token.text == "[":
            self.advance()
            items = [self.expr()]
            while self.at("op", ","):
                self.advance()
                items.append(self.expr())
            self.expect("op", "]")
            return ListExpr(tuple(items), token.column)
        raise self.error(f"expected a number, a name or '(', found {describe(token)}")

    def formula_value(self) -> QuotedFormula:
        """A quoted formula used as a value: it must not be a relation."""
        token, reading = self.quoted_formula()
        if reading.relations:
            raise StatementSyntaxError(
                token.column,
                f"the quoted formula ${token.text}$ is a relation: make it the whole"
                f" assertion, 'assert ${token.text}$'",
                code=TEX_SYNTAX,
            )
        return QuotedFormula(token.text, reading.terms[0], token.column)

    def name(self, token: Token) -> Name:
        """A name used as a value: functions must be called, keywords refused."""
        if token.text in KEYWORDS:
            raise StatementSyntaxError(token.column, f"{token.text!r} is a keyword, not a name")
        if token.text in FUNCTIONS:
            raise StatementSyntaxError(
                token.column, f"{token.text!r} is a function; call it as {token.text}(...)"
            )
        return Name(token.text, token.column)

    def call(self, func: Token) -> Call:
        """``FUNC(args)`` for a function of the closed list, with its argument count."""
        if func.text not in FUNCTIONS:
            known = ", ".join(FUNCTIONS)
            raise undecided(
                f"unknown function {func.text!r} at column {func.column};"
                f" the functions are {known}",
                column=func.column,
            )
        self.expect("op", "(")
        args = [self.expr()]
        while self.at("op", ","):
            self.advance()
            args.append(self.expr())
        self.expect("op", ")")
        check_arity(func, len(args))
        if func.text in BINDERS and not isinstance(args[1], Name):
            example = "limit(expr, k, oo)" if func.text == "limit" else f"{func.text}(i^2, i, 1, n)"
            raise undecided(
                f"{func.text} at column {func.column}: the second argument must be a name,"
                f" as in {example}",
                column=func.column,
            )
        return Call(func.text, tuple(args), func.column)


def check_arity(func: Token, count: int) -> None:
    """Refuse a call with the wrong number of arguments."""
    fewest, most = FUNCTIONS[func.text]
    if count < fewest or (most is not None and count > most):
        if most is None:
            wanted = f"at least {fewest}"
        elif fewest == most:
            wanted = str(fewest)
        else:
            wanted = f"{fewest} or {most}"
        plural = "" if wanted == "1" else "s"
        raise undecided(
            f"{func.text}() at column {func.column} takes {wanted} argument{plural}, not {count}",
            column=func.column,
        )
