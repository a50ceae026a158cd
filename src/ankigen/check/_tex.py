r"""Quoted formulas -> check expressions, through a closed grammar (format section 12).

Grammar (juxtaposition binds tighter than ``/``, ``\cdot`` and ``\times``, so
``2 T/k`` is ``(2*T)/k`` and ``1/2k`` is ``1/(2*k)``)::

    relation := expr {REL expr}            REL: = < > \approx \neq \le \ge ...
    expr     := [+|-] run {(+|-) run}
    run      := product {(\cdot | \times | * | /) product}
    product  := power {power}              (juxtaposition multiplies)
    power    := atom [^ script]
    atom     := NUMBER [\%] | NAME [_ script] | \frac A A | \sqrt[[expr]] A
              | FUNC [_ script] power | ( expr ) | { expr } | \{ expr \}
              | \left( expr \right) | \underbrace A [_ A] | \infty | GREEK

Names: ``T_{compute}`` is ``T_compute``, ``\lambda`` is ``lam``. A command
outside the grammar is an error naming it and its column; nothing is ever
evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ._ast import Binary, Call, Expr, Name, Num, Unary
from ._errors import StatementSyntaxError
from ._tex_lexer import TEX_SYNTAX, TexToken, tokenize_tex

#: Code of the diagnostic for a TeX command outside the subset.
UNKNOWN_COMMAND = "AG204"
#: Deepest nesting accepted in a quoted formula.
MAX_DEPTH = 50

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
}
_GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu"
    " nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
    " Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split()
)
_FUNCTIONS = {"log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan"}
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac"})
_PRODUCTS = {"cdot": "*", "times": "*"}


@dataclass(frozen=True)
class TexReading:
    """A quoted formula read: its terms and the relations between them (none: an expression)."""

    terms: tuple[Expr, ...]
    relations: tuple[str, ...]


def read_tex(tex: str, column: int) -> TexReading:
    """Read ``tex`` (first character at ``column`` of the statement); raises StatementSyntaxError."""
    return _TexParser(tokenize_tex(tex, column)).reading()


class _TexParser:
    """Recursive descent over the tokens of one quoted formula."""

    def __init__(self, tokens: list[TexToken]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    @property
    def peek(self) -> TexToken:
        return self.tokens[self.pos]

    def advance(self) -> TexToken:
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def at(self, kind: str, text: str | None = None) -> bool:
        return self.peek.kind == kind and (text is None or self.peek.text == text)

    def error(self, message: str, token: TexToken | None = None) -> StatementSyntaxError:
        where = token or self.peek
        return StatementSyntaxError(where.column, f"{message} in the quoted formula", code=TEX_SYNTAX)

    def expect(self, kind: str, text: str) -> TexToken:
        if not self.at(kind, text):
            shown = "\\" + text if kind == "cmd" else text
            found = "its end" if self.peek.kind == "end" else repr(self._shown(self.peek))
            raise self.error(f"expected {shown!r}, found {found}")
        return self.advance()

    @staticmethod
    def _shown(token: TexToken) -> str:
        return "\\" + token.text if token.kind == "cmd" else token.text

    # -- relations and expressions -----------------------------------------

    def reading(self) -> TexReading:
        terms = [self.expr()]
        relations: list[str] = []
        while self._relation() is not None:
            relations.append(self._relation() or "")
            self.advance()
            terms.append(self.expr())
        if not self.at("end"):
            raise self.error(f"unexpected {self._shown(self.peek)!r}")
        return TexReading(tuple(terms), tuple(relations))

    def _relation(self) -> str | None:
        token = self.peek
        if token.kind == "op" and token.text in ("=", "<", ">"):
            return RELATIONS[token.text]
        if token.kind == "cmd" and token.text in RELATIONS:
            return RELATIONS[token.text]
        return None

    def expr(self) -> Expr:
        self.enter()
        try:
            if self.at("op", "-") or self.at("op", "+"):
                sign = self.advance()
                result: Expr = Unary(sign.text, self.run(), sign.column)
            else:
                result = self.run()
            while self.at("op", "+") or self.at("op", "-"):
                op = self.advance()
                result = Binary(op.text, result, self.run(), op.column)
            return result
        finally:
            self.depth -= 1

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"nesting deeper than {MAX_DEPTH} levels")

    def run(self) -> Expr:
        result = self.product()
        while True:
            token = self.peek
            if token.kind == "cmd" and token.text in _PRODUCTS:
                op = "*"
            elif token.kind == "op" and token.text in ("*", "/"):
                op = token.text
            else:
                return result
            self.advance()
            result = Binary(op, result, self.product(), token.column)

    def product(self) -> Expr:
        result = self.power()
        while self._starts_atom():
            column = self.peek.column
            result = Binary("*", result, self.power(), column)
        return result

    def _starts_atom(self) -> bool:
        token = self.peek
        if token.kind in ("num", "letter"):
            return True
        if token.kind == "op":
            return token.text in ("(", "{")
        if token.kind == "cmd":
            return token.text not in RELATIONS and token.text not in _PRODUCTS and token.text not in (
                "right",
                "}",
                "%",
            )
        return False

    def power(self) -> Expr:
        base = self.atom()
        if self.at("op", "^"):
            op = self.advance()
            return Binary("^", base, self.script(), op.column)
        return base

    def script(self) -> Expr:
        """A superscript or argument: a braced group, or one token (``x^2``, ``\\frac12``)."""
        self.enter()
        try:
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
                return Num(Fraction(token.text[0]), token.column)
            if token.kind == "letter" or (token.kind == "cmd" and token.text in _GREEK | {"infty"}):
                return self.atom(subscripts=False)
            raise self.error(f"expected a braced group, found {self._found()}")
        finally:
            self.depth -= 1

    def _found(self) -> str:
        return "its end" if self.peek.kind == "end" else repr(self._shown(self.peek))

    # -- atoms --------------------------------------------------------------

    def atom(self, *, subscripts: bool = True) -> Expr:
        token = self.peek
        if token.kind == "num":
            self.advance()
            value = Fraction(token.text)
            if self.at("cmd", "%"):
                self.advance()
                value /= 100
            return Num(value, token.column)
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
        raise self.error(f"expected a number, a name or a group, found {self._found()}")

    def name(self, base: str, column: int, *, subscripts: bool) -> Name:
        word = "lam" if base == "lambda" else base
        if subscripts and self.at("op", "_"):
            self.advance()
            word += "_" + self.subscript_text()
        return Name(word, column)

    def subscript_text(self) -> str:
        """A subscript as name text: ``{compute}`` -> ``compute``, ``1`` -> ``1``."""
        token = self.advance()
        if token.kind in ("num", "letter"):
            return token.text
        if not (token.kind == "op" and token.text == "{"):
            raise self.error("a subscript of a name is letters and digits", token)
        parts: list[str] = []
        depth = 1
        while depth:
            part = self.advance()
            if part.kind == "op" and part.text in "{}":
                depth += 1 if part.text == "{" else -1
            elif part.kind == "cmd" and part.text == "mathrm":
                continue
            elif part.kind in ("num", "letter"):
                parts.append(part.text)
            else:
                raise self.error("a subscript of a name is letters and digits", part)
        if not parts:
            raise self.error("empty subscript", token)
        return "".join(parts)

    def command(self, token: TexToken, *, subscripts: bool) -> Expr:
        name = token.text
        if name in _GREEK:
            self.advance()
            return self.name(name, token.column, subscripts=subscripts)
        if name == "infty":
            self.advance()
            return Name("oo", token.column)
        if name in _FRACTIONS:
            self.advance()
            numerator = self.script()
            return Binary("/", numerator, self.script(), token.column)
        if name == "sqrt":
            return self.sqrt(token)
        if name in _FUNCTIONS:
            return self.function(token)
        if name == "left":
            return self.left(token)
        if name == "{":
            self.advance()
            inner = self.expr()
            self.expect("cmd", "}")
            return inner
        if name == "underbrace":
            self.advance()
            shown = self.script()
            if self.at("op", "_"):
                self.advance()
                self._skip_argument()
            return shown
        raise StatementSyntaxError(
            token.column,
            f"unknown TeX command '\\{name}' in the quoted formula; a check reads only"
            " \\frac, \\sqrt, \\log, \\cdot, \\times, \\left( \\right), Greek letters and"
            " the relations of format section 12 (cite the formula if it cannot be checked)",
            code=UNKNOWN_COMMAND,
        )

    def sqrt(self, token: TexToken) -> Expr:
        self.advance()
        index: Expr | None = None
        if self.at("op", "["):
            self.advance()
            index = self.expr()
            self.expect("op", "]")
        radicand = self.script()
        if index is None:
            return Call("sqrt", (radicand,), token.column)
        root = Binary("/", Num(Fraction(1), token.column), index, token.column)
        return Binary("^", radicand, root, token.column)

    def function(self, token: TexToken) -> Expr:
        self.advance()
        base: Expr | None = None
        if token.text == "log" and self.at("op", "_"):
            self.advance()
            base = self.script()
        argument = self.power()
        if base is None:
            return Call(_FUNCTIONS[token.text], (argument,), token.column)
        if isinstance(base, Num) and base.value == 2:
            return Call("log2", (argument,), token.column)
        return Call("log", (argument, base), token.column)

    def left(self, token: TexToken) -> Expr:
        self.advance()
        closers = {"(": ")", "[": "]"}
        opener = self.advance()
        if opener.kind == "op" and opener.text in closers:
            closer = ("op", closers[opener.text])
        elif opener.kind == "cmd" and opener.text == "{":
            closer = ("cmd", "}")
        else:
            raise self.error("\\left takes '(', '[' or '\\{'", opener)
        inner = self.expr()
        self.expect("cmd", "right")
        self.expect(*closer)
        return inner

    def _skip_argument(self) -> None:
        """Skip an ``\\underbrace`` label: one token or a balanced group."""
        if not self.at("op", "{"):
            self.advance()
            return
        depth = 0
        while True:
            token = self.advance()
            if token.kind == "end":
                raise self.error("unclosed '{'")
            if token.kind == "op" and token.text == "{":
                depth += 1
            elif token.kind == "op" and token.text == "}":
                depth -= 1
                if depth == 0:
                    return
