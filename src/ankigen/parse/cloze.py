"""Cloze markers in a paragraph's inline tokens: the token side of ``ankigen.syntax.cloze``.

The syntax itself (what an opener is, what is wrong with one) lives in
``ankigen.syntax.cloze``; this module only decides which tokens' text it
reads, numbers the ``==marks==`` and reports what is wrong with a cloze item.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.parse import token_meta
from ankigen.parse.near_miss import Located, Locator, report
from ankigen.parse.paragraph import BREAKS
from ankigen.syntax import cloze as syntax
from ankigen.syntax import separator

_MATH_TYPES = ("math_inline", "math_inline_double", "math_block")
_TEXT_TYPES = ("text", *_MATH_TYPES)


def has_cloze(children: Sequence[Token]) -> bool:
    """True when inline tokens hold cloze syntax outside code."""
    return any(
        child.type == "mark_open" or (child.type in _TEXT_TYPES and syntax.has_cloze(child.content))
        for child in children
    )


def opener_column(line: str, start: int = 0) -> int:
    """The 1-based column of the first cloze opener (else ``==``) in ``line`` from ``start``.

    0 when the line holds neither there: the cloze is on a later line of its block.
    """
    opener = syntax.OPENER.search(line, start)
    if opener is not None:
        return opener.start() + 1
    mark = line.find("==", start)
    return mark + 1 if mark >= 0 else 0


def after_separator_column(line: str) -> int:
    """The column of the first cloze opener after the ``:::`` of ``line`` (0 if none there)."""
    cut = next(separator.matches(line), None)
    return opener_column(line, cut.end()) if cut is not None else 0


class Marker(NamedTuple):
    """Where the first cloze syntax after an item's ``:::`` stands, and what it is."""

    line: int
    column: int
    #: True when it is on a line after the ``:::`` line (in the same paragraph).
    later: bool
    #: True for the ``==…==`` shorthand (a highlight, in other tools), not ``{{c1::``.
    shorthand: bool


def marker_after_separator(lines: Sequence[str], first: int, last: int = 0) -> Marker:
    """The first cloze syntax after the ``:::`` of the paragraph on lines ``first`` to ``last``.

    ``last`` 0: to the paragraph's end (a blank line). The ``:::`` may stand
    on a later line than ``first`` (block form); the cloze on any line after it.
    """
    last = last or _paragraph_end(lines, first)
    separator_line = 0
    for number in range(first, min(last, len(lines)) + 1):
        text = lines[number - 1]
        begin = 0
        if not separator_line:
            cut = next(separator.matches(text), None)
            if cut is None:
                continue
            separator_line, begin = number, cut.end()
        column = opener_column(text, begin)
        if column:
            shorthand = syntax.OPENER.search(text, begin) is None
            return Marker(number, column, number > separator_line, shorthand)
    return Marker(first, after_separator_column(lines[first - 1]), False, False)


def _paragraph_end(lines: Sequence[str], first: int) -> int:
    """The last line of the paragraph that starts at ``first`` (before a blank line)."""
    last = first
    while last < len(lines) and lines[last].strip():
        last += 1
    return last


def report_cloze_after_separator(lines: Sequence[str], first: int, last: int, sink: Sink) -> None:
    """Cloze syntax in a reveal item's answer is no cloze (AG125): at its marker, with the
    fix its shape suggests."""
    marker = marker_after_separator(lines, first, last)
    fix = "put the cloze before ':::' (the text after it is the Extra field)"
    if marker.later:
        # A cloze on its own line after an answer is most likely a new cloze item.
        fix = (
            f"if line {marker.line} starts a new cloze item, put a blank line before it (an "
            "item is a paragraph of its own); a cloze of this item goes before ':::' (the "
            "text after it is the Extra field)"
        )
    elif marker.shorthand:
        fix = (
            "'==…==' is the cloze shorthand here, not a highlight: write a highlight as "
            f"<mark>…</mark>, or {fix}"
        )
    message = Code.CLOZE_AFTER_SEPARATOR.message(hint=fix)
    sink.error(marker.line, message, column=marker.column, code=Code.CLOZE_AFTER_SEPARATOR)


def number_marks(children: Sequence[Token]) -> None:
    """Give each ``==mark==`` the next cloze number after the item's highest."""
    highest = max(explicit_ordinals(children), default=0)
    for child in children:
        if child.type == "mark_open":
            highest += 1
            token_meta.set_cloze_number(child, highest)


def explicit_ordinals(children: Sequence[Token]) -> list[int]:
    """The numbers of the ``{{cN::`` markers in text and math."""
    return [n for c in children if c.type in _TEXT_TYPES for n in syntax.ordinals(c.content)]


def cloze_problems(children: Sequence[Token], first_line: int, locator: Locator) -> list[Located]:
    """Malformed clozes in text starting at ``first_line``: no number, empty, unclosed.

    The paragraph's text is joined first, so a cloze around markup
    (``{{c1::**bold**}}``) is read whole; code spans and formulas stand in as
    ``x`` (render reports a formula's own clozes, with the same words).
    """
    text = "".join(_visible_text(child) for child in children)
    plain = "".join(
        c.content if c.type == "text" else _visible_text(c).replace("{", "(").replace("}", ")")
        for c in children
    )
    return [
        locator.locate(first_line + _offset(text, f.start), f)
        for f in syntax.text_problems(text, plain)
    ]


def read_cloze_item(
    front: Sequence[Token],
    extra: Sequence[Token] | None,
    line: int,
    lines: Sequence[str],
    sink: Sink,
) -> None:
    """Number a cloze item's marks; report its malformed clozes and any cloze in its Extra."""
    number_marks(front)
    for at in cloze_problems(front, line, Locator(lines)):
        report(at, sink)
    marks = [token_meta.cloze_number(c) or 0 for c in front if c.type == "mark_open"]
    if max(marks, default=0) > syntax.MAX_NUMBER:
        sink.error(
            line,
            syntax.MARKS_TOO_HIGH.message(most=syntax.MAX_NUMBER),
            column=lines[line - 1].find("==") + 1,
            code=syntax.MARKS_TOO_HIGH,
        )
    if extra is not None and has_cloze(extra):
        marker = marker_after_separator(lines, line)
        sink.error(
            marker.line,
            Code.CLOZE_IN_EXTRA.message(),
            column=marker.column,
            code=Code.CLOZE_IN_EXTRA,
        )


def _visible_text(child: Token) -> str:
    if child.type == "text":
        return child.content
    if child.type in BREAKS:
        return "\n"
    if child.type in ("code_inline", "image", *_MATH_TYPES):
        return "x"
    return ""


def _offset(text: str, position: int) -> int:
    return text.count("\n", 0, position)
