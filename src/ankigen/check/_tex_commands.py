"""The commands of a quoted formula: names with subscripts, fractions, roots, functions, groups."""

from __future__ import annotations

from fractions import Fraction

from ._ast import Binary, Call, Expr, ListExpr, Name, Num
from ._errors import StatementSyntaxError
from ._tex_base import FRACTIONS, FUNCTIONS, GREEK, SERIES, UNKNOWN_COMMAND, TexCursor
from ._tex_lexer import TexToken


class TexCommands(TexCursor):
    """Reading ``\\frac``, ``\\sqrt``, ``\\log_2``, ``\\left(``, Greek letters and subscripts."""

    def name(self, base: str, column: int, *, subscripts: bool) -> Name:
        """A letter or Greek name, with its subscript joined by ``_``."""
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
        """A command that starts an atom; any other is refused by name and column."""
        name = token.text
        if name in GREEK:
            self.advance()
            return self.name(name, token.column, subscripts=subscripts)
        if name == "infty":
            self.advance()
            return Name("oo", token.column)
        if name in FRACTIONS:
            self.advance()
            numerator = self.script()
            return Binary("/", numerator, self.script(), token.column)
        if name == "sqrt":
            return self.sqrt(token)
        if name in FUNCTIONS:
            return self.function(token)
        if name == "left":
            return self.left(token)
        if name == "{":
            self.advance()
            items = [self.expr()]
            while self.at("op", ","):
                self.advance()
                items.append(self.expr())
            self.expect("cmd", "}")
            return items[0] if len(items) == 1 else ListExpr(tuple(items), token.column)
        if name == "binom":
            self.advance()
            top = self.script()
            return Call("binomial", (top, self.script()), token.column)
        if name in SERIES or name == "lim":
            self.enter()  # the body is read through product(): count its depth
            try:
                return self.series(token) if name in SERIES else self.lim(token)
            finally:
                self.depth -= 1
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
            " \\frac, \\sqrt, \\log, \\cdot, \\times, \\left( \\right), \\binom, \\sum, \\prod,"
            " \\lim, Greek letters and the relations of format sections 12 and 18"
            " (cite the formula if it cannot be checked)",
            code=UNKNOWN_COMMAND,
        )

    def series(self, token: TexToken) -> Expr:
        """``\\sum_{i=a}^{b} body`` or ``\\prod``: the body is the product that follows."""
        self.advance()
        if not self.at("op", "_"):
            raise self.error(f"\\{token.text} needs its bounds, as in \\{token.text}_{{i=1}}^{{n}}")
        self.advance()
        self.expect("op", "{")
        index = self.advance()
        if index.kind != "letter" or not self.at("op", "="):
            raise self.error(
                f"\\{token.text} needs its bounds, as in \\{token.text}_{{i=1}}^{{n}}", index
            )
        self.advance()
        start = self.expr()
        self.expect("op", "}")
        self.expect("op", "^")
        stop = self.script()
        body = self.product()
        func = SERIES[token.text]
        return Call(func, (body, Name(index.text, index.column), start, stop), token.column)

    def lim(self, token: TexToken) -> Expr:
        """``\\lim_{x \\to a} body``: the limit of the product that follows."""
        self.advance()
        self.expect("op", "_")
        self.expect("op", "{")
        variable = self.advance()
        if variable.kind != "letter":
            raise self.error("\\lim_{x \\to a} needs a name before \\to", variable)
        name = self.name(variable.text, variable.column, subscripts=True)
        self.expect("cmd", "to")
        point = self.expr()
        self.expect("op", "}")
        return Call("limit", (self.product(), name, point), token.column)

    def sqrt(self, token: TexToken) -> Expr:
        """``\\sqrt{x}`` or ``\\sqrt[n]{x}``."""
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
        """``\\log_2 k``, ``\\log_{b} x``, ``\\ln x``, ...: the argument is one power."""
        self.advance()
        base: Expr | None = None
        if token.text == "log" and self.at("op", "_"):
            self.advance()
            base = self.script()
        argument = self.power()
        if base is None:
            return Call(FUNCTIONS[token.text], (argument,), token.column)
        if isinstance(base, Num) and base.value == 2:
            return Call("log2", (argument,), token.column)
        return Call("log", (argument, base), token.column)

    def left(self, token: TexToken) -> Expr:
        """``\\left( ... \\right)`` (or ``[`` or ``\\{``) as a group."""
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
