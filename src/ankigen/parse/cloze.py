"""Cloze syntax: find ``{{cN::...}}`` markers, number ``==marks==``, validate."""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

#: An opening marker, as Anki reads it (case-insensitive); the number may be
#: missing here so that ``{{c::x}}`` can be reported instead of ignored.
_OPENER = re.compile(r"\{\{c(\d*)::", re.IGNORECASE)
#: A whole cloze as Anki matches it: the shortest text up to ``}}``.
_CLOZE = re.compile(r"\{\{c(\d*)::(.*?)\}\}", re.IGNORECASE | re.DOTALL)

_TEXT_TYPES = ("text", "math_inline", "math_inline_double", "math_block")


def has_cloze(children: Sequence[Token]) -> bool:
    """True when inline tokens hold cloze syntax outside code."""
    return any(
        child.type == "mark_open" or (child.type in _TEXT_TYPES and _OPENER.search(child.content))
        for child in children
    )


def number_marks(children: Sequence[Token]) -> None:
    """Give each ``==mark==`` the next cloze number after the item's highest."""
    highest = max(explicit_ordinals(children), default=0)
    for child in children:
        if child.type == "mark_open":
            highest += 1
            child.meta["ord"] = highest


def explicit_ordinals(children: Sequence[Token]) -> list[int]:
    """The numbers of the ``{{cN::`` markers in text and math."""
    ords: list[int] = []
    for child in children:
        if child.type in _TEXT_TYPES:
            ords.extend(int(m.group(1)) for m in _OPENER.finditer(child.content) if m.group(1))
    return ords


def cloze_problems(children: Sequence[Token]) -> list[tuple[int, str]]:
    """Malformed clozes as ``(line offset, message)``: no number, empty, unclosed.

    The paragraph's text is joined first, so a cloze around markup
    (``{{c1::**bold**}}``) is read whole; code spans stand in as ``x``.
    """
    text = "".join(_visible_text(child) for child in children)
    problems: list[tuple[int, str]] = []
    for opener in _OPENER.finditer(text):
        number = opener.group(1)
        if opener.group(0)[2] == "C":
            problems.append(
                (
                    _offset(text, opener.start()),
                    f"cloze '{opener.group(0)}' must be lower case, '{{{{c{number}::', "
                    "or Anki makes no card for it",
                )
            )
        elif not number or int(number) == 0:
            problems.append(
                (
                    _offset(text, opener.start()),
                    f"cloze '{opener.group(0)}' needs a number from 1 up, e.g. '{{{{c1::'",
                )
            )
    closed_at: set[int] = set()
    for cloze in _CLOZE.finditer(text):
        closed_at.add(cloze.start())
        body = cloze.group(2).split("::", 1)[0]
        if not body.strip():
            problems.append(
                (
                    _offset(text, cloze.start()),
                    f"empty cloze '{cloze.group(0)}' would make an empty card",
                )
            )
    plain = "".join(
        c.content if c.type == "text" else _visible_text(c).replace("{", "(").replace("}", ")")
        for c in children
    )
    for cloze in _CLOZE.finditer(plain):
        body = cloze.group(2)
        if "{{" not in body and body.count("{") != body.count("}"):
            problems.append(
                (
                    _offset(plain, cloze.start()),
                    f"cloze '{cloze.group(0)}' ends at the first '}}}}', inside your braces "
                    "(Anki reads it so): put a space between the braces, '} }}'",
                )
            )
    for opener in _OPENER.finditer(text):
        if opener.start() not in closed_at and not _inside_cloze(text, opener.start()):
            problems.append(
                (
                    _offset(text, opener.start()),
                    f"cloze '{opener.group(0)}' is never closed: end it with '}}}}'",
                )
            )
    return problems


def _visible_text(child: Token) -> str:
    if child.type in _TEXT_TYPES:
        return child.content
    if child.type in ("softbreak", "hardbreak"):
        return "\n"
    if child.type in ("code_inline", "image"):
        return "x"
    return ""


def _inside_cloze(text: str, position: int) -> bool:
    """True for an opener nested inside another cloze (Anki allows nesting)."""
    return any(c.start() < position < c.end() for c in _CLOZE.finditer(text))


def _offset(text: str, position: int) -> int:
    return text.count("\n", 0, position)
