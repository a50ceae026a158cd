"""Claims on the card (format section 12): the numbers and formulas an item shows.

This module is the one reader of that syntax. The parse stage asks it for an
item's claims, with their places, from the item's markdown-it tokens (so code,
comments, link targets and list markers are never read as claims); the
checker asks it what a quoted number is worth and whether a quote and a
claim are the same number or the same formula.

A number "stands on its own" when no letter, digit, ``_`` or ``.`` is glued
to its front and it is not the tail of a word such as ``GPT-3``; it may carry
thousands separators (``10,000``), a decimal part, an exponent (``1e-3``), a
denominator (``1/2``) and a ``%`` or times sign (U+00D7, or ``3.3x``); a
vulgar fraction (``½``) is a number too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from markdown_it.token import Token

from ankigen.model import Claim, ItemKind
from ankigen.parse import token_meta
from ankigen.syntax.cloze import strip_markers

__all__ = [
    "MAX_EXPONENT",
    "formula_key",
    "holds_claim",
    "item_claims",
    "number_key",
    "number_value",
]

#: Largest decimal exponent a quoted number may carry (``1e1000``).
MAX_EXPONENT = 1000

_VULGAR = {
    "½": Fraction(1, 2),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅕": Fraction(1, 5),
    "⅖": Fraction(2, 5),
    "⅗": Fraction(3, 5),
    "⅘": Fraction(4, 5),
    "⅙": Fraction(1, 6),
    "⅚": Fraction(5, 6),
    "⅛": Fraction(1, 8),
    "⅜": Fraction(3, 8),
    "⅝": Fraction(5, 8),
    "⅞": Fraction(7, 8),
}
_VULGAR_CLASS = "".join(_VULGAR)
_BODY = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
#: A whole quoted number: value, optional denominator, optional suffix.
TIMES = "\u00d7"  # the multiplication sign, as authors type it after a factor
_QUOTED = re.compile(
    rf"(?P<body>{_BODY})(?:/(?P<den>\d+))?(?P<suffix>%|{TIMES}|x)?|[{_VULGAR_CLASS}]"
)
#: A number standing on its own in text; a dotted run (``127.0.0.1``, ``2.4.1``)
#: is an address or a version, not a number, so no piece of it is a claim.
_STANDALONE = re.compile(
    rf"(?<![A-Za-z_0-9.])(?<![A-Za-z]-)"
    rf"(?:{_BODY}(?!\.?\d)(?:/\d+)?(?:%|{TIMES}|x(?![A-Za-z0-9]))?|[{_VULGAR_CLASS}](?![0-9]))"
)
#: Where a standalone number can start: every match of _STANDALONE begins so.
_NUMBER_START = re.compile(rf"[\d{_VULGAR_CLASS}]")
#: A number inside TeX (``50\%`` is written ``50%``).
_TEX_NUMBER = re.compile(r"(?<![0-9.])\d+(?:\.\d+)?(?:\\%)?")
_URL = re.compile(r"\bhttps?://\S+")
#: A relation in TeX: what makes a formula a claim even without a digit.
_RELATION = re.compile(
    r"[=<>≈≠≤≥]|\\(?:approx|neq?|leq?|geq?|lt|gt|sim|simeq|propto|equiv)(?![A-Za-z])"
)


def number_value(text: str) -> Fraction | None:
    """The value of a quoted number (``50%`` is 1/2), or None if it is not one."""
    match = _QUOTED.fullmatch(text)
    if match is None:
        return None
    if match.group("body") is None:
        return _VULGAR[text]
    body = match.group("body").replace(",", "")
    exponent = re.search(r"[eE]([-+]?\d+)", body)
    if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
        return None
    value = Fraction(body)
    if match.group("den"):
        if int(match.group("den")) == 0:
            return None
        value /= int(match.group("den"))
    if match.group("suffix") == "%":
        value /= 100
    return value


def number_key(text: str) -> str:
    """What two written numbers must share to be the same claim (``x`` is the times sign)."""
    return text.replace("x", TIMES)


def formula_key(tex: str) -> str:
    """What two formulas must share to be the same: no cloze markers, no white space."""
    return "".join(strip_markers(tex).split())


def holds_claim(tex: str) -> bool:
    """True for a formula holding a digit or a relation (cloze markers removed)."""
    shown = strip_markers(tex)
    return any(c.isdigit() for c in shown) or _RELATION.search(shown) is not None


def item_claims(
    kind: ItemKind,
    front: tuple[Sequence[Token], int],
    lead: tuple[Sequence[Token], int],
    blocks: Sequence[Token],
    lines: Sequence[str],
) -> tuple[Claim, ...]:
    """Every number and formula of an item, in order, each with its line and column.

    ``front`` and ``lead`` are inline tokens with the line they start on:
    the question (or cloze text) and the answer's first paragraph (or the
    Extra's); ``blocks`` are the answer's following blocks.
    """
    reader = _Reader(lines)
    reader.inline(front[0], front[1], shown_as_claim=kind is ItemKind.CLOZE)
    reader.inline(lead[0], lead[1], shown_as_claim=True)
    for token in blocks:
        if token.type == "inline" and token.children:
            reader.inline(token.children, _line(token, 0), shown_as_claim=True)
        elif token.type == "math_block":
            reader.formula(token.content, _line(token, 0), "$$", shown_as_claim=True)
    return tuple(reader.claims)


def _line(token: Token, default: int) -> int:
    noted = token_meta.noted_line(token)
    if noted is not None:
        return noted
    return token.map[0] + 1 if token.map else default


class _Reader:
    """Collects claims, finding each one's column in its source line."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.claims: list[Claim] = []
        self.cursor: dict[int, int] = {}  # per line: where the next search starts

    def inline(self, children: Sequence[Token], line: int, *, shown_as_claim: bool) -> None:
        """Read one paragraph's inline tokens."""
        in_autolink = False
        for child in children:
            here = _line(child, line)
            if child.type == "link_open":
                in_autolink = child.markup == "autolink"
            elif child.type == "link_close":
                in_autolink = False
            elif child.type == "text" and not in_autolink:
                self.text(child.content, here, shown_as_claim=shown_as_claim)
            elif child.type in ("math_inline", "math_inline_double"):
                delimiter = "$" if child.type == "math_inline" else "$$"
                self.formula(child.content, here, delimiter, shown_as_claim=shown_as_claim)
            elif child.type in ("code_inline", "html_inline", "text"):
                self.find(here, child.content)  # skip over it: never a claim

    def text(self, content: str, line: int, *, shown_as_claim: bool) -> None:
        """Standalone numbers of a text token."""
        start = self.find(line, content)
        first = _NUMBER_START.search(content)
        if first is None:
            return  # the common case: no digit, no fraction, so no number
        # A link's digits are not claims; blanked to spaces, every offset stays.
        has_url = "http" in content
        readable = _URL.sub(lambda m: " " * len(m.group()), content) if has_url else content
        # No number starts before the first digit (the lookbehinds still see it).
        for match in _STANDALONE.finditer(readable, first.start()):
            found = start + match.start() if start is not None else None
            column = self.find(line, match.group()) if found is None else found
            self.add(match.group(), False, line, column, required=shown_as_claim)

    def formula(self, tex: str, line: int, delimiter: str, *, shown_as_claim: bool) -> None:
        """A formula, then the numbers inside it (quotable, never required)."""
        first_line = tex.strip().split("\n", 1)[0]
        found = self.find(line, first_line)
        column = None
        if found is not None:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            column = text.rfind(delimiter, 0, found)
        else:  # a display formula whose TeX starts on the line after its '$$'
            column = self.find(line, delimiter)
        required = shown_as_claim and holds_claim(tex)
        self.add(tex.strip(), True, line, column, required=required)
        for match in _TEX_NUMBER.finditer(strip_markers(tex)):
            written = match.group().replace("\\%", "%")
            self.add(written, False, line, None, required=False)

    def add(
        self, text: str, formula: bool, line: int, column: int | None, *, required: bool
    ) -> None:
        """Record one claim; ``column`` is 0-based here, None when unknown."""
        shown = 0 if column is None or column < 0 else column + 1
        self.claims.append(Claim(text, formula, line, shown, required))

    def find(self, line: int, needle: str) -> int | None:
        """0-based column of ``needle`` in ``line`` after the last find, or None."""
        if not needle or not 0 < line <= len(self.lines):
            return None
        start = self.cursor.get(line, 0)
        index = self.lines[line - 1].find(needle, start)
        if index < 0:
            return None
        self.cursor[line] = index + len(needle)
        return index
