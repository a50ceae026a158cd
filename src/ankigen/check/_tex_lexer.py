"""Tokenizer for quoted formulas: the TeX subset of format section 12, nothing else.

A quoted formula is read by this closed tokenizer and ``_tex``'s parser, never
by TeX, sympy or Python. Spacing commands, ``~`` and ``\\text{…}`` labels are
dropped here; every other command is kept for the parser to accept or refuse
by name.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

from ankigen.diagnostics import Code
from ankigen.syntax import tex as syntax_tex

from ._errors import StatementSyntaxError

#: Code of the diagnostic for a quoted formula that does not parse.
TEX_SYNTAX = Code.CHECK_TEX_SYNTAX

#: Commands that only space or label a formula: skipped.
SPACING = frozenset({",", ";", ":", "!", " ", "quad", "qquad", "displaystyle"})
#: Commands whose braced argument is a label, not math: skipped with it.
LABELS = frozenset({"text", "textrm", "mbox"})
#: Unicode signs read as the command (or operator) that writes them.
_UNICODE = {
    "\u2212": ("op", "-"),  # the minus sign
    "\u00d7": ("cmd", "times"),
    "·": ("cmd", "cdot"),
    "⋅": ("cmd", "cdot"),
    "≈": ("cmd", "approx"),
    "≤": ("cmd", "le"),
    "≥": ("cmd", "ge"),
    "≠": ("cmd", "neq"),
    "∞": ("cmd", "infty"),
    "√": ("cmd", "sqrt"),
}
_OPERATORS = frozenset("+-*/^_(){}[]=<>,|!")


class TexToken(NamedTuple):
    """``num``, ``letter`` (a name: ``k`` or ``beta``), ``cmd`` (without ``\\``), ``op``, ``end``.

    ``column`` is 1-based in the statement line. A named tuple: as immutable as a
    frozen dataclass, and made several times faster (a formula has dozens of tokens).
    """

    kind: str
    text: str
    column: int


def tokenize_tex(tex: str, column: int) -> list[TexToken]:
    """Tokens of ``tex``, whose first character is at ``column`` of the statement."""
    tokens: list[TexToken] = []
    pos = 0
    while pos < len(tex):
        char = tex[pos]
        here = column + pos
        if char in _OPERATORS:  # first: the commonest, and no other branch takes one
            tokens.append(TexToken("op", char, here))
            pos += 1
        elif char.isspace() or char == "~":
            pos += 1
        elif "0" <= char <= "9":
            end = _digits(tex, pos)
            if tex[end : end + 1] == "." and "0" <= tex[end + 1 : end + 2] <= "9":
                end = _digits(tex, end + 1)
            tokens.append(TexToken("num", tex[pos:end], here))
            pos = end
        elif char == "\\":
            pos = _command(tex, pos, column, tokens)
        elif "a" <= char.lower() <= "z":
            tokens.append(TexToken("letter", char, here))
            pos += 1
        elif _greek(char) is not None:
            tokens.append(TexToken("letter", _greek(char) or "", here))
            pos += 1
        elif char in _UNICODE:
            kind, text = _UNICODE[char]
            tokens.append(TexToken(kind, text, here))
            pos += 1
        else:
            raise StatementSyntaxError(
                here, f"unexpected {char!r} in the quoted formula", code=TEX_SYNTAX
            )
    tokens.append(TexToken("end", "", column + len(tex)))
    return tokens


def _digits(tex: str, pos: int) -> int:
    while pos < len(tex) and "0" <= tex[pos] <= "9":
        pos += 1
    return pos


def _command(tex: str, pos: int, column: int, tokens: list[TexToken]) -> int:
    """Read ``\\name`` or ``\\X`` at ``pos``; append its token unless it is spacing."""
    # TeX's own tokens: \name (a following * is an operator here) or \, \{ \%
    name = syntax_tex.command_at(tex, pos)[1:]
    end = pos + 1 + len(name)
    if not name:
        raise StatementSyntaxError(
            column + pos, "a lone '\\' ends the quoted formula", code=TEX_SYNTAX
        )
    if name in SPACING:
        return end
    if name in LABELS:
        return _skip_group(tex, end, column)
    tokens.append(TexToken("cmd", name, column + pos))
    return end


def _skip_group(tex: str, pos: int, column: int) -> int:
    """Index after the braced group starting at ``pos`` (white space first)."""
    pos = syntax_tex.skip_space(tex, pos)
    if tex[pos : pos + 1] != "{":
        raise StatementSyntaxError(column + pos, "expected '{' after \\text", code=TEX_SYNTAX)
    end = syntax_tex.group_end(tex, pos)
    if end is None:
        raise StatementSyntaxError(
            column + pos, "unclosed '{' in the quoted formula", code=TEX_SYNTAX
        )
    return end + 1


def _greek(char: str) -> str | None:
    """``beta`` for β, ``Delta`` for Δ, ``lam`` for λ; None for anything else."""
    if not ("\u0370" <= char <= "\u03ff"):
        return None
    name = unicodedata.name(char, "")
    for prefix, capital in (("GREEK SMALL LETTER ", False), ("GREEK CAPITAL LETTER ", True)):
        if name.startswith(prefix):
            word = name[len(prefix) :].lower()
            if not word.isalpha():
                return None
            word = "lam" if word == "lamda" else word
            return word.capitalize() if capital else word
    return None
