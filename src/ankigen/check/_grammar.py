"""Recursive-descent parser: one check statement -> one ``_ast`` statement.

Grammar (expressions, quotes included, are in ``_expressions``)::

    statement := 'let' NAME '=' expr
               | 'assert' expr OP expr clauses
               | ['assert'] '$' RELATION '$' clauses
               | 'cite' QUOTE {',' QUOTE}
    clauses   := ['within' NUMBER '%'] ['where' binding {',' binding}]
                 ['for' NAME 'in' INT '..' INT]
    binding   := NAME '=' expr | '$' NAME '=' TEX '$'   (the card's own equation)
    QUOTE     := '`' NUMBER '`' | '$' TEX '$'

A quoted relation (``$S = k/2$``, a chain ``$a = b \\approx c$``) is an
assertion in its own right; ``\\approx`` is ``~=`` within 1% unless
``within`` says otherwise.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ._ast import Assert, Binding, Cite, Expr, Let, Loop, Name, Quote, Statement
from ._errors import StatementSyntaxError, undecided
from ._expressions import CONSTANTS, FUNCTIONS, KEYWORDS, ExpressionParser, describe
from ._lexer import Token
from ._macro_quotes import NO_EXPANSIONS, Expansions, formula_quote
from ._tex_base import UNDECIDED
from ._tex_lexer import TEX_SYNTAX

#: Most values a ``for`` clause may run over.
MAX_LOOP = 10_000
#: Tolerance of a quoted ``\approx`` without ``within``.
TEX_APPROX_TOLERANCE = Fraction(1, 100)

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "~=")

__all__ = ["COMPARISONS", "CONSTANTS", "FUNCTIONS", "defined_name", "parse_statement"]


def parse_statement(line: str, expansions: Expansions = NO_EXPANSIONS) -> Statement | None:
    """Parse one line of a block; None for a blank or comment-only line.

    ``expansions``: the block's quoted formulas that use an author's macro, each
    with its expansion. Raises StatementError (a StatementSyntaxError for grammar
    problems).
    """
    code = line.split("#", 1)[0]
    if not code.strip():
        return None
    return _Parser(code, expansions).statement()


def defined_name(line: str) -> str | None:
    """The NAME of a line that starts ``let NAME``, even if the rest is broken."""
    words = line.split("#", 1)[0].replace("=", " = ").split()
    if len(words) >= 2 and words[0] == "let" and words[1].isidentifier():
        return words[1]
    return None


def defined_name_column(line: str) -> int:
    """The 1-based column of the NAME of a ``let NAME`` line (0 when it defines none)."""
    name = defined_name(line)
    if name is None:
        return 0
    return line.find(name, line.find("let") + 3) + 1


class _Parser(ExpressionParser):
    """Statements and their clauses, over the expression parser."""

    def statement(self) -> Statement:
        """``let``, ``assert``, ``cite`` or a quoted relation, then the end of the line."""
        result: Statement
        if self.at("name", "let"):
            self.advance()
            result = self.let()
        elif self.at("name", "assert"):
            self.advance()
            result = self.assertion()
        elif self.at("name", "cite"):
            self.advance()
            result = self.cite()
        elif self.at("tex"):
            result = self.assertion()
        else:
            raise self.error(
                f"a statement starts with 'let', 'assert' or 'cite', found {describe(self.peek)}"
            )
        if not self.at("end"):
            found = describe(self.peek)
            if self.at("name"):  # prose after a statement: a reason, written as a comment
                found += " (a reason or remark goes after '#')"
            raise self.error(f"expected end of statement, found {found}")
        return result

    def let(self) -> Let:
        """``NAME = EXPR`` after ``let``."""
        name = self.new_name()
        self.expect("op", "=")
        value = self.expr()
        return Let(name.text, value, tuple(self.quotes))

    def cite(self) -> Cite:
        """``QUOTE {, QUOTE}`` after ``cite``: recorded, never parsed as math."""
        while True:
            token = self.advance()
            if token.kind not in ("quote", "tex"):
                raise StatementSyntaxError(
                    token.column,
                    f"'cite' takes a quote of the card (`1.3x` or $...$), found {describe(token)}",
                )
            quote = formula_quote(token, self.expansions) if token.kind == "tex" else None
            self.quotes.append(quote or Quote(token.text, False, token.column))
            if not self.at("op", ","):
                return Cite(tuple(self.quotes))
            self.advance()

    def new_name(self) -> Token:
        """A name being defined or bound: not a keyword, constant or function."""
        token = self.expect("name", what="a name")
        if token.text in KEYWORDS:
            raise StatementSyntaxError(token.column, f"{token.text!r} is a keyword, not a name")
        if token.text in CONSTANTS:
            raise undecided(
                f"{token.text!r} is a built-in constant and cannot be defined", column=token.column
            )
        if token.text in FUNCTIONS:
            raise undecided(
                f"{token.text!r} is a function and cannot be defined", column=token.column
            )
        return token

    def assertion(self) -> Assert:
        """Everything after ``assert``: a comparison, or a quoted relation."""
        start = self.peek.column
        if self.at("tex"):
            relation = self.quoted_relation(start)
            if relation is not None:
                return relation
        left = self.expr()
        if self.at("op", "="):
            raise self.error("'=' defines; write '==' to compare")
        if not (self.at("op") and self.peek.text in COMPARISONS):
            raise self.error(
                f"expected a comparison ({' '.join(COMPARISONS)}), found {describe(self.peek)}"
            )
        op = self.advance().text
        right = self.expr()
        within = self.within(op == "~=")
        return self.finish(start, (left, op, right), (), within)

    def quoted_relation(self, start: int) -> Assert | None:
        """``$a = b ...$`` and its clauses; None (nothing consumed) if the TeX is no relation."""
        saved = (self.pos, list(self.quotes))
        token, reading = self.quoted_formula()
        if not reading.relations:
            self.pos, self.quotes = saved
            return None
        terms, ops = reading.terms, reading.relations
        undecided = [UNDECIDED[op] for op in ops if op in UNDECIDED]
        if undecided:
            raise StatementSyntaxError(
                token.column,
                f"a check cannot decide {undecided[0]} in ${token.text}$: cite the formula,"
                " and prove its parts (a limit with limit(...))",
                code=TEX_SYNTAX,
            )
        chain = tuple(zip(ops[1:], terms[2:], strict=True))
        within = self.within("~=" in ops)
        statement = self.finish(start, (terms[0], ops[0], terms[1]), chain, within)
        default = TEX_APPROX_TOLERANCE if "~=" in ops else None
        return replace(statement, default_within=default, relation=token.text)

    def finish(
        self,
        start: int,
        link: tuple[Expr, str, Expr],
        chain: tuple[tuple[str, Expr], ...],
        within: Fraction | None,
    ) -> Assert:
        """The ``where`` and ``for`` clauses, then the assertion."""
        where = self.where()
        loop = self.loop()
        if self.at("op") and self.peek.text in COMPARISONS:
            raise self.error("one comparison per assert (write a second assert)")
        if self.at("name") and self.peek.text in ("within", "where", "for"):
            raise self.error("clauses go in the order: within, where, for")
        text = self.code[start - 1 : self.peek.column - 1].strip()
        left, op, right = link
        return Assert(left, op, right, within, where, loop, text, chain, tuple(self.quotes))

    def within(self, approximate: bool) -> Fraction | None:
        """Optional ``within P%``: the tolerance as a fraction (5% is 1/20)."""
        if not self.at("name", "within"):
            return None
        if not approximate:
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
            binding = self.quoted_binding() if self.at("tex") else self.binding()
            if any(b.name == binding.name for b in bindings):
                raise StatementSyntaxError(
                    binding.column, f"{binding.name!r} appears twice in 'where'"
                )
            bindings.append(binding)
            if not self.at("op", ","):
                return tuple(bindings)
            self.advance()

    def binding(self) -> Binding:
        """``NAME = EXPR`` of a ``where`` clause."""
        name = self.new_name()
        self.expect("op", "=")
        return Binding(name.text, self.expr(), name.column)

    def quoted_binding(self) -> Binding:
        """``$NAME = TEX$``: the card's own equation as a substitution (``$T_{comm} = 0$``)."""
        token, reading = self.quoted_formula()
        self.quotes[-1] = replace(self.quotes[-1], binding=True)
        target = reading.terms[0]
        if reading.relations != ("==",) or not isinstance(target, Name):
            raise StatementSyntaxError(
                token.column,
                f"a quoted formula in 'where' is one equation NAME = value, not ${token.text}$",
                code=TEX_SYNTAX,
            )
        if target.name in CONSTANTS or target.name in FUNCTIONS or target.name in KEYWORDS:
            raise StatementSyntaxError(
                token.column, f"{target.name!r} cannot be substituted", code=TEX_SYNTAX
            )
        return Binding(target.name, reading.terms[1], token.column, quoted=True)

    def loop(self) -> Loop | None:
        """Optional ``for NAME in A..B`` over integers."""
        if not self.at("name", "for"):
            return None
        self.advance()
        name = self.new_name()
        self.expect("name", "in")
        column = self.peek.column  # the range's, where its problems are reported
        start = self.integer()
        self.expect("op", "..")
        stop = self.integer()
        if start > stop:
            raise undecided(
                f"'for {name.text} in {start}..{stop}' is an empty range", column=column
            )
        if stop - start + 1 > MAX_LOOP:
            raise undecided(
                f"'for {name.text} in {start}..{stop}' has {stop - start + 1} values;"
                f" at most {MAX_LOOP}",
                column=column,
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
