"""Tokenizer for check statements: numbers, names, operators, quotes, nothing else.

Everything a Python payload needs (string quotes, dots for attributes,
brackets, colons, backslashes) is refused here, at its column, before any
parsing. A quote of the card (format section 12) is one token: a number
between backticks (``quote``, valued by ``ankigen.parse.claims``) or a formula
between dollars (``tex``, read later by ``_tex``).
"""

from __future__ import annotations

import keyword
import unicodedata
from fractions import Fraction
from typing import NamedTuple

from ankigen.diagnostics import Code
from ankigen.parse.claim_numbers import read_number

from ._errors import StatementSyntaxError

#: Code of the diagnostic for a malformed quote.
BAD_QUOTE = Code.BAD_QUOTE
_QUOTE_FORMS = (
    "`128`, `50%`, `3.3\u00d7`, `3.3x`, `0.05`, `1/2`, `\u00bd`, `1e-3`, `10,000`, `10\u00b2`,"
    " `four`, `a third` or `500 ms`"
)

#: Longest statement accepted; longer lines are refused rather than parsed.
MAX_STATEMENT_LENGTH = 2000
#: Largest decimal exponent in a literal such as ``1e300``; bigger is refused.
MAX_LITERAL_EXPONENT = 1000

# Longest operators first, so ``**`` is not read as two ``*``.
_OPERATORS = (
    "**",
    "==",
    "!=",
    "<=",
    ">=",
    "~=",
    "..",
    "+",
    "-",
    "*",
    "/",
    "^",
    "(",
    ")",
    ",",
    "=",
    "<",
    ">",
    "%",
    "!",
    "[",
    "]",
)

_NO_STRINGS = (
    "strings are not allowed: quote a number as the card writes it in backticks (`128`, `500 ms`)"
)
# Characters that are Python syntax we refuse, with the reason an author sees.
_REFUSED = {
    "'": _NO_STRINGS,
    '"': _NO_STRINGS,
    ".": "attribute access is not allowed",
    "{": "braces are not allowed",
    "}": "braces are not allowed",
    ":": "':' is not allowed (no lambdas, slices or dicts)",
    "\\": "backslashes are not allowed",
    "@": "'@' is not allowed",
    ";": "one statement per line",
}


class Token(NamedTuple):
    """One token: ``num``, ``name``, ``op``, ``quote``, ``tex`` or ``end``; column is 1-based.

    A ``quote`` or ``tex`` token's text is what stands between its delimiters. A named
    tuple: as immutable as a frozen dataclass, and made several times faster.
    """

    kind: str
    text: str
    column: int
    value: Fraction | None = None


def tokenize(line: str) -> list[Token]:
    """Split one statement (comment already removed) into tokens, ending with ``end``."""
    if len(line) > MAX_STATEMENT_LENGTH:
        raise StatementSyntaxError(
            1, f"statement is {len(line)} characters long; at most {MAX_STATEMENT_LENGTH}"
        )
    tokens: list[Token] = []
    pos = 0
    while pos < len(line):
        char = line[pos]
        if char.isspace():
            pos += 1
        elif _is_digit(char) or (char == "." and _is_digit(line[pos + 1 : pos + 2])):
            token, pos = _number(line, pos)
            tokens.append(token)
        elif char in "`$":
            token, pos = _quote(line, pos)
            tokens.append(token)
        elif char.isalpha() or char == "_":
            token, pos = _name(line, pos)
            tokens.append(token)
        else:
            token = _operator(line, pos)
            tokens.append(token)
            pos += len(token.text)
    tokens.append(Token("end", "", len(line) + 1))
    return tokens


def _number(line: str, start: int) -> tuple[Token, int]:
    """Read ``12``, ``0.5``, ``.5`` or ``1e-9`` as an exact fraction.

    A dot followed by a second dot is the range operator (``1..10``), not a
    decimal point.
    """
    pos = _digits(line, start)
    if line[pos : pos + 1] == "." and line[pos + 1 : pos + 2] != ".":
        pos = _digits(line, pos + 1)
    mantissa_end = pos
    if line[pos : pos + 1] in ("e", "E"):
        exp_start = pos + 1
        if line[exp_start : exp_start + 1] in ("+", "-"):
            exp_start += 1
        if _is_digit(line[exp_start : exp_start + 1]):
            pos = _digits(line, exp_start)
    text = line[start:pos]
    if pos < len(line) and (line[pos].isalnum() or line[pos] == "_"):
        raise StatementSyntaxError(
            pos + 1, f"unexpected {line[pos]!r} after number {text!r} (write '*' to multiply)"
        )
    if mantissa_end < pos and abs(int(line[mantissa_end + 1 : pos])) > MAX_LITERAL_EXPONENT:
        raise StatementSyntaxError(
            start + 1, f"number {text!r} is too large (exponent above {MAX_LITERAL_EXPONENT})"
        )
    # Fraction reads decimal and exponent notation exactly, never as a float.
    return Token("num", text, start + 1, Fraction(text)), pos


def _quote(line: str, start: int) -> tuple[Token, int]:
    """Read `` `NUMBER` `` or ``$TEX$`` / ``$$TEX$$`` starting at ``start``."""
    delimiter = "$$" if line.startswith("$$", start) else line[start]
    body_start = start + len(delimiter)
    end = line.find(delimiter, body_start)
    if end < 0:
        what = "quote" if delimiter == "`" else "quoted formula"
        raise StatementSyntaxError(
            start + 1, f"{what} opened here is never closed with {delimiter}", code=BAD_QUOTE
        )
    body = line[body_start:end]
    if delimiter != "`":
        if not body.strip():
            raise StatementSyntaxError(start + 1, "empty quoted formula", code=BAD_QUOTE)
        return Token("tex", body, start + 1), end + len(delimiter)
    written = read_number(body)
    if written is None:
        raise StatementSyntaxError(
            start + 1,
            f"a quote holds one number as the card writes it ({_QUOTE_FORMS}), not `{body}`;"
            " quote a formula as $...$",
            code=BAD_QUOTE,
        )
    value = written.value
    if written.unit:
        from ._units import quantity  # pint loads for the first quote with a unit

        measured = quantity(written.value, written.unit)
        if measured is None:
            raise StatementSyntaxError(
                start + 1,
                f"`{body}`: {written.unit!r} is not a unit; quote the number alone",
                code=BAD_QUOTE,
            )
        value = measured.value  # in SI units: `500 ms` is 1/2
    return Token("quote", body, start + 1, value), end + 1


def _digits(line: str, pos: int) -> int:
    """Index just after the run of digits starting at ``pos``."""
    while pos < len(line) and _is_digit(line[pos]):
        pos += 1
    return pos


def _is_digit(char: str) -> bool:
    """True for one of 0-9 (``str.isdigit`` also accepts other scripts)."""
    return len(char) == 1 and "0" <= char <= "9"


def _name(line: str, start: int) -> tuple[Token, int]:
    """Read an identifier; Python keywords and non-normalized names are refused."""
    pos = start
    while pos < len(line) and (line[pos].isalnum() or line[pos] == "_"):
        pos += 1
    text = line[start:pos]
    if keyword.iskeyword(text) and text not in ("assert", "for", "in"):
        raise StatementSyntaxError(
            start + 1, f"{text!r} is a Python keyword, not allowed in a check"
        )
    if not text.isidentifier() or unicodedata.normalize("NFKC", text) != text:
        raise StatementSyntaxError(start + 1, f"{text!r} is not a valid name")
    return Token("name", text, start + 1), pos


def _operator(line: str, pos: int) -> Token:
    """Read the operator at ``pos`` or refuse the character with a reason."""
    for op in _OPERATORS:
        if line.startswith(op, pos):
            return Token("op", op, pos + 1)
    char = line[pos]
    reason = _REFUSED.get(char, f"unexpected character {char!r}")
    raise StatementSyntaxError(pos + 1, reason)
