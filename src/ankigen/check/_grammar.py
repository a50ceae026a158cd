"""Recursive-descent parser: one check statement -> one ``_ast`` statement.

Grammar (``^`` and ``**`` are one operator, right-associative, tighter than
unary minus, so ``-x^2`` is ``-(x^2)`` as in Python and in mathematics)::

    statement := 'let' NAME '=' expr
               | 'assert' expr OP expr ['within' NUMBER '%']
                 ['where' NAME '=' expr {',' NAME '=' expr}]
                 ['for' NAME 'in' INT '..' INT]
    expr      := term {('+' | '-') term}
    term      := unary {('*' | '/') unary}
    unary     := ('-' | '+') unary | power
    power     := atom [('^' | '**') unary]
    atom      := NUMBER | NAME | FUNC '(' expr {',' expr} ')' | '(' expr ')'

The function list is closed and checked here, so an unknown call never gets
as far as sympy.
"""

from __future__ import annotations

from fractions import Fraction

from ._ast import Assert, Binary, Binding, Call, Expr, Let, Loop, Name, Num, Statement, Unary
from ._errors import StatementError, StatementSyntaxError
from ._lexer import Token, tokenize

#: Deepest nesting of parentheses, calls, unary signs and powers accepted.
MAX_DEPTH = 50
#: Most values a ``for`` clause may run over.
MAX_LOOP = 10_000

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "~=")
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
}
# Words of the statement grammar that the lexer lets through but that are
# never names (the lexer refuses every other Python keyword).
_KEYWORDS = ("assert", "for", "in")


def parse_statement(line: str) -> Statement | None:
    """Parse one line of a block; None for a blank or comment-only line.

    Raises StatementError (a StatementSyntaxError for grammar problems).
    """
    code = line.split("#", 1)[0]
    if not code.strip():
        return None
    return _Parser(code).statement()


def defined_name(line: str) -> str | None:
    """The NAME of a line that starts ``let NAME``, even if the rest is broken."""
    words = line.split("#", 1)[0].replace("=", " = ").split()
    if len(words) >= 2 and words[0] == "let" and words[1].isidentifier():
        return words[1]
    return None


def _describe(token: Token) -> str:
    """How a token is named in a message."""
    return "end of statement" if token.kind == "end" else repr(token.text)


class _Parser:
    """Parser state for one statement: tokens and a cursor."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.tokens = tokenize(code)
        self.pos = 0
        self.depth = 0

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
                self.peek.column, f"expected {wanted}, found {_describe(self.peek)}"
            )
        return self.advance()

    def error(self, message: str) -> StatementSyntaxError:
        """A syntax error at the next token."""
        return StatementSyntaxError(self.peek.column, message)

    # -- statements ----------------------------------------------------------

    def statement(self) -> Statement:
        """``let ...`` or ``assert ...``, then the end of the line."""
        if self.at("name", "let"):
            self.advance()
            result: Statement = self.let()
        elif self.at("name", "assert"):
            self.advance()
            result = self.assertion()
        else:
            raise self.error(
                f"a statement starts with 'let' or 'assert', found {_describe(self.peek)}"
            )
        if not self.at("end"):
            raise self.error(f"expected end of statement, found {_describe(self.peek)}")
        return result

    def let(self) -> Let:
        """``NAME = EXPR`` after ``let``."""
        name = self.new_name()
        self.expect("op", "=")
        return Let(name.text, self.expr())

    def new_name(self) -> Token:
        """A name being defined or bound: not a keyword, constant or function."""
        token = self.expect("name", what="a name")
        if token.text in _KEYWORDS:
            raise StatementSyntaxError(token.column, f"{token.text!r} is a keyword, not a name")
        if token.text in CONSTANTS:
            raise StatementError(f"{token.text!r} is a built-in constant and cannot be defined")
        if token.text in FUNCTIONS:
            raise StatementError(f"{token.text!r} is a function and cannot be defined")
        return token

    def assertion(self) -> Assert:
        """Everything after ``assert``."""
        start = self.peek.column
        left = self.expr()
        if self.at("op", "="):
            raise self.error("'=' defines; write '==' to compare")
        if not (self.at("op") and self.peek.text in COMPARISONS):
            raise self.error(
                f"expected a comparison ({' '.join(COMPARISONS)}), found {_describe(self.peek)}"
            )
        op = self.advance().text
        right = self.expr()
        within = self.within(op)
        where = self.where()
        loop = self.loop()
        if self.at("op") and self.peek.text in COMPARISONS:
            raise self.error("one comparison per assert (write a second assert)")
        if self.at("name") and self.peek.text in ("within", "where", "for"):
            raise self.error("clauses go in the order: within, where, for")
        text = self.code[start - 1 : self.peek.column - 1].strip()
        return Assert(left, op, right, within, where, loop, text)

    def within(self, op: str) -> Fraction | None:
        """Optional ``within P%``: the tolerance as a fraction (5% is 1/20)."""
        if not self.at("name", "within"):
            return None
        if op != "~=":
            raise self.error("'within' only goes with '~='")
        self.advance()
        percent = self.expect("num", what="a percentage")
        self.expect("op", "%")
        assert percent.value is not None
        return percent.value / 100

    def where(self) -> tuple[Binding, ...]:
        """Optional ``where NAME = EXPR, ...``."""
        if not self.at("name", "where"):
            return ()
        self.advance()
        bindings: list[Binding] = []
        while True:
            name = self.new_name()
            if any(b.name == name.text for b in bindings):
                raise StatementSyntaxError(name.column, f"{name.text!r} appears twice in 'where'")
            self.expect("op", "=")
            bindings.append(Binding(name.text, self.expr()))
            if not self.at("op", ","):
                return tuple(bindings)
            self.advance()

    def loop(self) -> Loop | None:
        """Optional ``for NAME in A..B`` over integers."""
        if not self.at("name", "for"):
            return None
        self.advance()
        name = self.new_name()
        self.expect("name", "in")
        start = self.integer()
        self.expect("op", "..")
        stop = self.integer()
        if start > stop:
            raise StatementError(f"'for {name.text} in {start}..{stop}' is an empty range")
        if stop - start + 1 > MAX_LOOP:
            raise StatementError(
                f"'for {name.text} in {start}..{stop}' has {stop - start + 1} values;"
                f" at most {MAX_LOOP}"
            )
        return Loop(name.text, start, stop)

    def integer(self) -> int:
        """An integer literal with an optional minus sign (a ``for`` bound)."""
        sign = 1
        if self.at("op", "-"):
            self.advance()
            sign = -1
        token = self.expect("num", what="an integer")
        assert token.value is not None
        if token.value.denominator != 1:
            raise StatementSyntaxError(token.column, f"{token.text!r} is not an integer")
        return sign * token.value.numerator

    # -- expressions ---------------------------------------------------------

    def expr(self) -> Expr:
        """``term {('+' | '-') term}``, left-associative."""
        result = self.term()
        while self.at("op") and self.peek.text in ("+", "-"):
            op = self.advance()
            result = Binary(op.text, result, self.term(), op.column)
        return result

    def term(self) -> Expr:
        """``unary {('*' | '/') unary}``, left-associative."""
        result = self.unary()
        while self.at("op") and self.peek.text in ("*", "/"):
            op = self.advance()
            result = Binary(op.text, result, self.unary(), op.column)
        return result

    def unary(self) -> Expr:
        """Signs, then a power; every nesting level passes through here."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"expression nested more than {MAX_DEPTH} levels deep")
        try:
            if self.at("op") and self.peek.text in ("-", "+"):
                op = self.advance()
                return Unary(op.text, self.unary(), op.column)
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> Expr:
        """``atom [^ unary]``: the exponent may carry a sign and is right-associative."""
        base = self.atom()
        if self.at("op") and self.peek.text in ("^", "**"):
            op = self.advance()
            return Binary("^", base, self.unary(), op.column)
        return base

    def atom(self) -> Expr:
        """A number, a name, a call or a parenthesised expression."""
        token = self.peek
        if token.kind == "num":
            self.advance()
            assert token.value is not None
            return Num(token.value, token.column)
        if token.kind == "name":
            self.advance()
            if self.at("op", "("):
                return self.call(token)
            return self.name(token)
        if token.kind == "op" and token.text == "(":
            self.advance()
            inner = self.expr()
            self.expect("op", ")")
            return inner
        raise self.error(f"expected a number, a name or '(', found {_describe(token)}")

    def name(self, token: Token) -> Name:
        """A name used as a value: functions must be called, keywords refused."""
        if token.text in _KEYWORDS:
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
            raise StatementError(
                f"unknown function {func.text!r} at column {func.column}; the functions are {known}"
            )
        self.expect("op", "(")
        args = [self.expr()]
        while self.at("op", ","):
            self.advance()
            args.append(self.expr())
        self.expect("op", ")")
        self.check_arity(func, len(args))
        if func.text == "limit" and not isinstance(args[1], Name):
            raise StatementError(
                f"limit at column {func.column}: the second argument must be a name,"
                " as in limit(expr, k, oo)"
            )
        return Call(func.text, tuple(args), func.column)

    @staticmethod
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
            raise StatementError(
                f"{func.text}() at column {func.column} takes {wanted} argument{plural},"
                f" not {count}"
            )
