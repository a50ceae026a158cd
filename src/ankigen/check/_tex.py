r"""Quoted formulas -> check expressions, through a closed grammar (format section 12).

Grammar (juxtaposition binds tighter than ``/``, ``\cdot`` and ``\times``, so
``2 T/k`` is ``(2*T)/k`` and ``1/2k`` is ``1/(2*k)``)::

    relation := expr {REL expr}            REL: = < > \approx \neq \le \ge ...
    expr     := [+|-] run {(+|-) run}
    run      := product {(\cdot | \times | * | /) product}
    product  := power {power}              (juxtaposition multiplies)
    power    := atom [^ script]
    atom     := (NUMBER [\%] | NAME [_ script] | \frac A A | \sqrt[[expr]] A
              | FUNC [_ script] power | ( expr ) | { expr } | \{ expr {, expr} \}
              | \left( expr \right) | \underbrace A [_ A] | \infty | GREEK
              | \binom A A | \sum_{i=expr}^A product | \prod_{i=expr}^A product
              | \lim_{x \to expr} product) {!}
    REL adds \sim (read as \approx) and \in (one of a set of numbers).

Names: ``T_{compute}`` is ``T_compute``, ``\lambda`` is ``lam``. A command
outside the grammar is an error naming it and its column; nothing is ever
evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ._ast import Binary, Call, Expr, Num, Unary
from ._tex_base import GREEK, PRODUCTS, RELATIONS, TexReading
from ._tex_commands import TexCommands
from ._tex_lexer import TexToken, tokenize_tex

__all__ = ["RELATIONS", "TexReading", "read_tex", "read_tokens"]


def read_tex(tex: str, column: int) -> TexReading:
    """Read ``tex`` (its first character at ``column`` of the statement).

    Raises StatementSyntaxError for TeX outside the grammar.
    """
    return read_tokens(tokenize_tex(tex, column))


def read_tokens(tokens: Sequence[TexToken]) -> TexReading:
    """Read the tokens ``tokenize_tex`` gave, for a caller that needs them too.

    The parser works on a copy (it splits a number read as a script in two),
    so ``tokens`` stay as they were. Raises StatementSyntaxError as ``read_tex``.
    """
    return _TexParser(list(tokens)).reading()


class _TexParser(TexCommands):
    """Recursive descent over the tokens of one quoted formula."""

    def reading(self) -> TexReading:
        """The whole formula: terms and the relations between them."""
        terms = [self.expr()]
        relations: list[str] = []
        while self._relation() is not None:
            relations.append(self._relation() or "")
            self.advance()
            terms.append(self.expr())
        if not self.at("end"):
            raise self.error(f"unexpected {self.shown(self.peek)!r}")
        return TexReading(tuple(terms), tuple(relations))

    def _relation(self) -> str | None:
        token = self.peek
        if token.kind == "op" and token.text in ("=", "<", ">"):
            return RELATIONS[token.text]
        if token.kind == "cmd" and token.text in RELATIONS:
            return RELATIONS[token.text]
        return None

    def expr(self) -> Expr:
        """``[+|-] run {(+|-) run}``, left-associative."""
        levels = 0
        try:
            self.enter()
            if self.at("op", "-") or self.at("op", "+"):
                sign = self.advance()
                result: Expr = Unary(sign.text, self.run(), sign.column)
            else:
                result = self.run()
            while self.at("op", "+") or self.at("op", "-"):
                op = self.advance()
                levels += 1
                self.chained()
                result = Binary(op.text, result, self.run(), op.column)
            return result
        finally:
            self.leave()
            self.height -= levels

    def run(self) -> Expr:
        """``product {(\\cdot | \\times | * | /) product}``, left-associative."""
        result = self.product()
        levels = 0
        try:
            while True:
                token = self.peek
                if token.kind == "cmd" and token.text in PRODUCTS:
                    if self.tokens[self.pos + 1].kind == "end":
                        self.advance()  # ``k\times`` alone: "k times", the factor k
                        return result
                    op = "*"
                elif token.kind == "op" and token.text in ("*", "/"):
                    op = token.text
                else:
                    return result
                self.advance()
                levels += 1
                self.chained()
                result = Binary(op, result, self.product(), token.column)
        finally:
            self.height -= levels

    def product(self) -> Expr:
        """Juxtaposed powers multiply: ``2 T_{compute}``."""
        result = self.power()
        levels = 0
        try:
            while self._starts_atom():
                column = self.peek.column
                levels += 1
                self.chained()
                result = Binary("*", result, self.power(), column)
            return result
        finally:
            self.height -= levels

    def _starts_atom(self) -> bool:
        token = self.peek
        if token.kind in ("num", "letter"):
            return True
        if token.kind == "op":
            return token.text in ("(", "{")
        if token.kind == "cmd":
            return (
                token.text not in RELATIONS
                and token.text not in PRODUCTS
                and token.text
                not in (
                    "right",
                    "}",
                    "%",
                )
            )
        return False

    def power(self) -> Expr:
        """``atom {!} [^ script]``: ``n!`` is the factorial of ``n``."""
        base = self.atom()
        while self.at("op", "!"):
            bang = self.advance()
            base = Call("factorial", (base,), bang.column)
        if self.at("op", "^"):
            op = self.advance()
            return Binary("^", base, self.script(), op.column)
        return base

    def script(self) -> Expr:
        """A superscript or argument: a braced group, or one token (``x^2``, ``\\frac12``)."""
        try:
            self.enter()
            if self.at("op", "{"):
                return self.atom()
            token = self.peek
            if token.kind == "num":
                if "." in token.text:
                    raise self.error("write a decimal superscript or argument in braces", token)
                # TeX reads one digit: x^23 is x^2 * 3, \frac12 is 1/2.
                if len(token.text) > 1:
                    rest = TexToken("num", token.text[1:], token.column + 1)
                    self.tokens[self.pos] = rest
                else:
                    self.advance()
                return Num(Fraction(token.text[0]), token.column, token.text[0])
            if token.kind == "letter" or (token.kind == "cmd" and token.text in GREEK | {"infty"}):
                return self.atom(subscripts=False)
            raise self.error(f"expected a braced group, found {self.found()}")
        finally:
            self.leave()

    def atom(self, *, subscripts: bool = True) -> Expr:
        """A number, a name, a group or a command."""
        token = self.peek
        if token.kind == "num":
            self.advance()
            value = Fraction(token.text)
            written = token.text
            if self.at("cmd", "%"):
                self.advance()
                value /= 100
                written += "%"
            return Num(value, token.column, written)
        if token.kind == "letter":
            self.advance()
            return self.name(token.text, token.column, subscripts=subscripts)
        if token.kind == "op" and token.text in ("(", "{"):
            self.advance()
            inner = self.expr()
            self.expect("op", ")" if token.text == "(" else "}")
            return inner
        if token.kind == "cmd":
            return self.command(token, subscripts=subscripts)
        raise self.error(f"expected a number, a name or a group, found {self.found()}")
