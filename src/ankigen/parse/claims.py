"""Claims on the card (format sections 12 and 18): the numbers and formulas an item shows.

This module is the one reader of that syntax. The parse stage asks it for an
item's claims, with their places, from the item's markdown-it tokens (so
comments, link targets and list markers are never read as claims); the
checker asks it what a quoted number is worth. Numbers themselves, in digits
or words, are read by ``claim_numbers``.

Each claim says at which claim level it must be quoted: ``required`` at
``answers`` (section 12: a number standing on its own, or a formula holding a
digit or a relation, in the answer, cloze text or Extra), ``everywhere`` at
``all`` (section 18: every number and every formula other than a lone symbol,
on both sides of the card: premises, hints in text and math, the context
line, alt text, table cells, code, numbers in words, ``\\text{}`` inside a
formula). Other claims are quotable only: numbers inside formulas, ``one``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from markdown_it.token import Token

from ankigen.model import Claim, ItemKind
from ankigen.parse import token_meta
from ankigen.parse.claim_numbers import MAX_EXPONENT, TIMES, find_numbers, read_number
from ankigen.parse.inline_html import read_tag
from ankigen.syntax import tex as tex_syntax
from ankigen.syntax.cloze import hints as cloze_hints
from ankigen.syntax.cloze import strip_markers

__all__ = [
    "MAX_EXPONENT",
    "context_claims",
    "formula_key",
    "holds_claim",
    "is_lone_symbol",
    "item_claims",
    "number_key",
    "number_value",
]

#: A number inside TeX (``50\\%`` is written ``50%``).
_TEX_NUMBER = re.compile(r"(?<![0-9.])\d+(?:\.\d+)?(?:\\%)?")
#: Text the learner reads but no claim: a web address, a footnote label (``[^1]``).
_NOT_CLAIMS = re.compile(r"\bhttps?://\S+|\[\^[^\]\s]+\]")
#: An HTML comment, or a tag: what of raw HTML the card does not show as text.
_COMMENT_OR_TAG = re.compile(r"<!--.*?(?:-->|$)|<[^>]*>?", re.DOTALL)
#: A tag that may carry attributes (no comment, no closing tag).
_OPENING_TAG = re.compile(r"<[A-Za-z][^>]*>")
#: Commands whose group is text the learner reads inside a formula (``\\text{...}``).
_TEXT_COMMANDS = frozenset({"\\text", "\\textrm", "\\mbox", "\\mathrm"})


def number_value(text: str) -> Fraction | None:
    """The value of a quoted number (``50%`` is 1/2, ``four`` 4), or None if it is not one.

    A number with a unit word is not one here (the checker reads units, in SI units).
    """
    written = read_number(text)
    return None if written is None or written.unit else written.value


def number_key(text: str) -> str:
    """What two written numbers must share to be the same claim (``x`` is the times sign)."""
    return text.replace("x", TIMES)


def formula_key(tex: str) -> str:
    """The formula's characters without cloze markers and white space (the checker compares
    formulas by notation, ``check._notation``; this is its last resort)."""
    return "".join(strip_markers(tex).split())


def holds_claim(tex: str) -> bool:
    """True for a formula holding a digit or a relation (cloze markers removed)."""
    shown = strip_markers(tex)
    return any(c.isdigit() for c in shown) or tex_syntax.has_relation(shown)


def is_lone_symbol(tex: str) -> bool:
    """True for a formula that is one symbol (``k``, ``\\eta``, ``T_{comm}``): no claim."""
    shown = tex_syntax.without_spacing(strip_markers(tex)).strip()
    while shown.startswith("{") and shown.endswith("}"):  # {\rho} is \rho
        shown = shown[1:-1].strip()
    return tex_syntax.is_one_symbol(shown)


def context_claims(context: str, line: int) -> tuple[Claim, ...]:
    """The numbers of a card's context line (shown on its front), at ``line``."""
    return tuple(
        Claim(found.text, False, line, 0, False, everywhere=True, unit=found.unit)
        for found in find_numbers(context, words=True)
        if found.text.lower() != "one"
    )


def item_claims(
    kind: ItemKind,
    front: tuple[Sequence[Token], int],
    lead: tuple[Sequence[Token], int],
    blocks: Sequence[Token],
    lines: Sequence[str],
) -> tuple[Claim, ...]:
    """Every number and formula of an item, in reading order, each with its line and column.

    ``front`` and ``lead`` are inline tokens with the line they start on:
    the question (or cloze text) and the answer's first paragraph (or the
    Extra's); ``blocks`` are the answer's following blocks.
    """
    reader = _Reader(lines)
    reader.inline(front[0], front[1], answer=kind is ItemKind.CLOZE)
    reader.inline(lead[0], lead[1], answer=True)
    for token in blocks:
        if token.type == "inline" and token.children:
            reader.inline(token.children, _line(token, 0), answer=True)
        elif token.type == "math_block":
            reader.formula(token.content, _line(token, 0), "$$", answer=True)
        elif token.type in ("fence", "code_block"):
            reader.code(token.content, _line(token, 0) + (token.type == "fence"))
        elif token.type == "html_block":
            reader.html_block(token.content, _line(token, 0))
    return tuple(reader.claims)


def _line(token: Token, default: int) -> int:
    noted = token_meta.noted_line(token)
    if noted is not None:
        return noted
    return token.map[0] + 1 if token.map else default


def _blank_out(tex: str, labels: list[tuple[int, int, str]]) -> str:
    """``tex`` with each ``\\text{...}`` label replaced by one space (its numbers are read
    as text, not as the formula's)."""
    kept, at = [], 0
    for start, end, _ in labels:
        kept += [tex[at:start], " "]
        at = end
    return "".join(kept) + tex[at:]


class _Reader:
    """Collects claims, finding each one's column in its source line."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.claims: list[Claim] = []
        self.cursor: dict[int, int] = {}  # per line: where the next search starts
        #: Each line's text once looked up (a section's lines are a view that costs a
        #: method call per index, and every token of a line is looked for in it).
        self._texts: dict[int, str] = {}

    def inline(self, children: Sequence[Token], line: int, *, answer: bool) -> None:
        """Read one paragraph's inline tokens (``answer``: required at level ``answers``)."""
        in_autolink = False
        for child in children:
            here = _line(child, line)
            if child.type == "link_open":
                in_autolink = child.markup == "autolink"
            elif child.type == "link_close":
                in_autolink = False
            elif child.type == "text" and not in_autolink:
                self.text(child.content, here, answer=answer)
            elif child.type in ("math_inline", "math_inline_double"):
                delimiter = "$" if child.type == "math_inline" else "$$"
                self.formula(child.content, here, delimiter, answer=answer)
            elif child.type == "code_inline":
                self.text(child.content, here, answer=False, words=False)
            elif child.type == "image":
                self.text(child.content, here, answer=False)
            elif child.type == "html_inline":
                self.tag(child.content, here)  # its tooltip; the tag is not shown
            elif child.type == "text":
                self.find(here, child.content)  # skip over it: never a claim

    def text(self, content: str, line: int, *, answer: bool, words: bool = True) -> None:
        """The numbers of a piece of text the learner reads, written as it is in its line."""
        self.text_at(self.find(line, content), content, line, answer=answer, words=words)

    def text_at(
        self, start: int | None, content: str, line: int, *, answer: bool, words: bool = True
    ) -> None:
        """The numbers of ``content``, which starts at ``start`` of its line (None: unknown,
        as for text not written as a whole there: each number is looked for by itself)."""
        # A link's digits and a footnote's label are not claims; blanked to spaces, every
        # offset stays.
        blank = "http" in content or "[^" in content
        readable = _NOT_CLAIMS.sub(lambda m: " " * len(m.group()), content) if blank else content
        for found in find_numbers(readable, words=words):
            column = start + found.start if start is not None else self.find(line, found.text)
            self.add(
                found.text,
                False,
                line,
                column,
                required=answer and not found.word and not found.glued,
                everywhere=found.text.lower() != "one",
                unit=found.unit,
            )

    def tag(self, tag: str, line: int, start: int | None = None) -> None:
        """An HTML tag: its ``title`` (a tooltip) is read as alt text is. ``start``: where
        the tag starts in its line (None: it is looked for there)."""
        if start is None:
            start = self.find(line, tag)
        read = read_tag(tag)
        title = dict(read.attributes).get("title", "") if read is not None else ""
        if not title:
            return
        # The value as written (an entity in it moves nothing but its own number's place).
        offset = tag.find(title)
        at = start + offset if start is not None and offset >= 0 else None
        self.text_at(at, title, line, answer=False)

    def html_block(self, content: str, line: int) -> None:
        """An HTML block of an answer, line by line: its text is shown (tags and comments
        are not), and a tag's tooltip is read as alt text is."""
        for offset, text in enumerate(content.splitlines()):
            start = self.find(line + offset, text)
            # Tags and comments blanked to spaces: every column stays where it is.
            shown = _COMMENT_OR_TAG.sub(lambda m: " " * len(m.group()), text)
            self.text_at(start, shown, line + offset, answer=True)
            for tag in _OPENING_TAG.finditer(text):
                at = start + tag.start() if start is not None else None
                self.tag(tag.group(), line + offset, at)

    def code(self, content: str, line: int) -> None:
        """A code block's numbers, line by line (required at level ``all`` only)."""
        for offset, text in enumerate(content.splitlines()):
            self.text(text, line + offset, answer=False, words=False)

    def formula(self, tex: str, line: int, delimiter: str, *, answer: bool) -> None:
        """A formula, then the text inside it, then its numbers (quotable, never required)."""
        first_line = tex.strip().split("\n", 1)[0]
        found = self.find(line, first_line)
        column = None
        if found is not None:
            text = self._text(line)
            column = text.rfind(delimiter, 0, found)
        else:  # a display formula whose TeX starts on the line after its '$$'
            column = self.find(line, delimiter)
        required = answer and holds_claim(tex)
        self.add(
            tex.strip(), True, line, column, required=required, everywhere=not is_lone_symbol(tex)
        )
        for hint in cloze_hints(tex):
            self._inner_text(hint, line, column, answer=False)
        shown = strip_markers(tex)
        labels = tex_syntax.arguments(shown, _TEXT_COMMANDS)
        for _, _, label in labels:
            self._inner_text(label, line, column, answer=answer)
        for match in _TEX_NUMBER.finditer(_blank_out(shown, labels)):
            written = match.group().replace("\\%", "%")
            self.add(written, False, line, None, required=False, everywhere=False)

    def _inner_text(self, text: str, line: int, column: int | None, *, answer: bool) -> None:
        """Text inside a formula (a hint, a ``\\text`` label), placed at the formula."""
        for found in find_numbers(text, words=True):
            if found.text.lower() != "one":
                self.add(
                    found.text,
                    False,
                    line,
                    column,
                    required=answer,
                    everywhere=True,
                    unit=found.unit,
                )

    def add(
        self,
        text: str,
        formula: bool,
        line: int,
        column: int | None,
        *,
        required: bool,
        everywhere: bool,
        unit: str = "",
    ) -> None:
        """Record one claim; ``column`` is 0-based here, None when unknown."""
        shown = 0 if column is None or column < 0 else column + 1
        self.claims.append(
            Claim(text, formula, line, shown, required, everywhere or required, unit)
        )

    def find(self, line: int, needle: str) -> int | None:
        """0-based column of ``needle`` in ``line`` after the last find, or None."""
        if not needle:
            return None
        text = self._text(line)
        if not text:
            return None  # no line (or an empty one, which holds no needle either)
        start = self.cursor.get(line, 0)
        index = text.find(needle, start)
        if index < 0:
            return None
        self.cursor[line] = index + len(needle)
        return index

    def _text(self, line: int) -> str:
        """The text of source line ``line`` ('' when the file has no such line)."""
        text = self._texts.get(line)
        if text is None:
            text = self._texts[line] = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return text
