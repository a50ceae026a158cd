r"""When two formulas are the same notation (format section 18): token trees, never characters.

A quote matches a formula of the card when both read as the same TeX through
the checker's own reader (``_tex``): braces around one token, spacing
commands, ``\dfrac``/``\tfrac``/``\frac``, ``\cdot``/``\times``/juxtaposition,
``g_{i}``/``g_i``, ``\log_{2}``/``\log_2`` and the order of the terms of a sum
or the factors of a product make no difference; anything else does
(``M/\beta`` is not ``\beta/M``, ``\log_2 k`` is not ``\ln k``). A formula
the reader does not accept is compared by its normalised tokens; one it
cannot even tokenise, by its characters without white space.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ankigen.syntax import tex as tex_syntax
from ankigen.syntax.cloze import strip_markers

from ._ast import Binary, Call, Expr, ListExpr, Name, Num, QuotedFormula, QuotedNumber, Unary
from ._errors import StatementError
from ._tex import read_tokens
from ._tex_lexer import TexToken, tokenize_tex

__all__ = ["notation_key"]

#: Commands that write the same thing.
_SAME = {"dfrac": "frac", "tfrac": "frac", "cdot": "times", "ne": "neq", "le": "leq", "ge": "geq"}


@lru_cache(maxsize=4096)
def notation_key(tex: str) -> str:
    r"""A key equal for two formulas exactly when they are the same notation (see above).

    A formula that is one number (``$1$``, ``$50\%$``) has the key of that
    number written in text, ``n:<value>``.
    """
    shown = strip_markers(tex)
    labels = _labels(shown)
    try:
        tokens = tokenize_tex(shown, 1)
    except StatementError:
        return "t:" + "".join(shown.split())
    try:
        reading = read_tokens(tokens)
    except (StatementError, RecursionError):
        return "t:" + _token_key(tokens[:-1])  # the tokens read once serve both readings
    if not reading.relations and isinstance(reading.terms[0], Num):
        return f"n:{reading.terms[0].value}"
    parts = [canonical(reading.terms[0])]
    for relation, term in zip(reading.relations, reading.terms[1:], strict=True):
        parts += [relation, canonical(term)]
    return "f:" + " ".join(parts) + labels


#: Commands whose group is text the card shows: read as text (its numbers are claims of
#: their own, section 18), so no part of a formula's notation.
_TEXT = frozenset({"\\text", "\\textrm", "\\mbox"})
#: Commands whose ``_``/``^`` argument is a label under or over the formula.
_BRACES = frozenset({"\\underbrace", "\\overbrace"})


def _labels(tex: str) -> str:
    """The math of each brace's label (``\\underbrace{…}_{\\text{hops grow with } k}``:
    ``k``), which the reading skips but the card shows, as part of the key: a label
    ``k`` is not a label ``k^2``. Its ``\\text`` is read as text, not here."""
    parts = []
    for match in tex_syntax.token_spans(tex):
        if match.group() not in _BRACES:
            continue
        at = tex_syntax.skip_space(tex, tex_syntax.argument_end(tex, match.end()))
        if tex[at : at + 1] not in ("_", "^"):
            continue
        label = tex[at + 1 : tex_syntax.argument_end(tex, at + 1)]
        kept, last = [], 0
        for start, end, _ in tex_syntax.arguments(label, _TEXT):
            kept.append(label[last:start])
            last = end
        parts.append("".join("".join([*kept, label[last:]]).split()))
    return "".join(f" | {part}" for part in parts)


def canonical(expr: Expr) -> str:
    """The expression as a string in which commutative sums and products are sorted."""
    if isinstance(expr, Num | QuotedNumber):
        return str(expr.value)
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, QuotedFormula):
        return canonical(expr.value)
    if isinstance(expr, Unary):
        inner = canonical(expr.operand)
        return inner if expr.op == "+" else f"neg({inner})"
    if isinstance(expr, Call):
        return f"{expr.func}({','.join(canonical(a) for a in expr.args)})"
    if isinstance(expr, ListExpr):
        return f"list({','.join(canonical(a) for a in expr.items)})"
    if expr.op in ("+", "-"):
        terms = sorted(_terms(expr, positive=True))
        return f"sum({','.join(terms)})"
    if expr.op == "*":
        return f"mul({','.join(sorted(_factors(expr)))})"
    name = "div" if expr.op == "/" else "pow"
    return f"{name}({canonical(expr.left)},{canonical(expr.right)})"


def _terms(expr: Expr, *, positive: bool) -> list[str]:
    if isinstance(expr, Binary) and expr.op in ("+", "-"):
        right_positive = positive if expr.op == "+" else not positive
        return _terms(expr.left, positive=positive) + _terms(expr.right, positive=right_positive)
    if isinstance(expr, Unary) and expr.op == "-":
        return _terms(expr.operand, positive=not positive)
    shown = canonical(expr)
    return [shown if positive else f"neg({shown})"]


def _factors(expr: Expr) -> list[str]:
    if isinstance(expr, Binary) and expr.op == "*":
        return _factors(expr.left) + _factors(expr.right)
    return [canonical(expr)]


def _token_key(tokens: Sequence[TexToken]) -> str:
    """Normalised tokens of TeX the reader does not accept: one spelling per command."""
    written = [_spelled(token) for token in tokens]
    # A brace pair around one token is that token: x^{2} is x^2, g_{i} is g_i.
    changed = True
    while changed:
        changed = False
        for index in range(len(written) - 2):
            if (
                written[index] == "{"
                and written[index + 2] == "}"
                and written[index + 1] not in "{}"
            ):
                del written[index + 2], written[index]
                changed = True
                break
    return " ".join(written)


def _spelled(token: TexToken) -> str:
    if token.kind == "cmd":
        return "\\" + _SAME.get(token.text, token.text)
    return token.text
