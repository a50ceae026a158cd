"""Cut a content file into sections that parse alone exactly as they parse in the file.

A top-level ``#`` or ``##`` ATX heading ends every block before it (paragraph,
list, quote, table), and the walker starts afresh at each one (it closes the
open item and resets the section). So the text before such a heading and the
text from it on give the same tokens, line for line, whether markdown-it
reads them together or apart. A heading counts as a cut only where that is
certain:

* at the start of a line, after a blank line (so no paragraph or HTML block
  of types 6 and 7 runs on into it);
* outside fenced code and display math. An HTML block (comments,
  ``<script>``, ``<pre>``... run across blank lines) is not followed: a line
  that may open one, other than a one-line comment, makes the file be parsed
  whole, as does a fence that opens indented.

CommonMark reads link reference definitions from the whole document, so a
file with anything that may be one (``]:``) is not cut at all; nor is a file
with carriage returns (markdown-it normalises them, and line numbers would
then be counted differently).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

#: What makes a file be parsed whole: reference definitions, and line breaks other than "\n".
_NOT_CUT = ("]:", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_HEADING = re.compile(r"#{1,2}(?:[ \t]|$)")
_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})")
#: First characters of the lines that may cut, open or be indented: all others are prose.
_SPECIAL = frozenset("#`~<$ \t")
_ONE_LINE_COMMENT = re.compile(r"<!--(?:(?!-->).)*-->")
#: A line break before a line that starts with one of ``_SPECIAL``.
_SPECIAL_LINE = re.compile("\n[" + re.escape("".join(sorted(_SPECIAL))) + "]")
#: The line that closes front matter (searched from the end of its first line).
_FRONT_MATTER_CLOSE = re.compile(r"\n(?:---|\.\.\.)")
#: A line that ends with ``$$`` (whitespace aside), searched from a line break on.
_MATH_CLOSE = re.compile(r"\n[^\n]*\$\$[^\S\n]*(?=\n|\Z)")


class OutsideSection(IndexError):
    """A section's tokens read a line of another section: the cut was wrong (a bug)."""


class _Unsure(Exception):
    """The file has a construct whose extent this scan does not know for certain."""


@dataclass(frozen=True)
class Section:
    """A run of whole lines: its text (newline-terminated) and its first line (0-based)."""

    start: int
    text: str

    def lines(self, total: int) -> SectionLines:
        """This section's lines, indexed as the file's (of ``total`` lines) are."""
        return SectionLines(self.start, self.text.splitlines(), total)


class SectionLines(Sequence[str]):
    """A section's lines under the file's line numbers, so the file's lines need not
    stay in memory while its sections are parsed.

    Indexing outside the section raises ``OutsideSection``: a section's tokens
    only ever point into the section itself (the parse stage, should one ever
    not, parses the file whole instead).
    """

    def __init__(self, start: int, lines: list[str], total: int) -> None:
        self._start = start
        self._lines = lines
        self._total = total

    def __len__(self) -> int:
        return self._total

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._total)
            if step != 1 or start < self._start or stop > self._start + len(self._lines):
                raise OutsideSection("lines outside the section")
            return self._lines[start - self._start : stop - self._start]
        if not self._start <= index < self._start + len(self._lines):
            raise OutsideSection("a line outside the section")
        return self._lines[index - self._start]


def split_sections(text: str) -> list[Section] | None:
    """The file's sections, in order; None when it must be parsed whole."""
    cut = cut_sections(text)
    if cut is None:
        return None
    starts, bounds = cut
    return [Section(start, text[bounds[n] : bounds[n + 1]]) for n, start in enumerate(starts)]


def cut_sections(text: str) -> tuple[list[int], list[int]] | None:
    """Where the file's sections begin: their first lines (0-based), and their offsets in
    ``text`` then the text's end (section ``n`` is ``text[bounds[n] : bounds[n + 1]]``).

    None: the file must be parsed whole. A file with line breaks other than
    ``\n`` is not cut: ``splitlines`` and markdown-it would count its lines
    differently.
    """
    if any(mark in text for mark in _NOT_CUT):
        return None
    body = _front_matter_end(text)
    if body is None:
        return None
    try:
        cuts = list(_cuts(text, *body))
    except _Unsure:
        return None
    return [0, *(line for line, _ in cuts)], [0, *(offset for _, offset in cuts), len(text)]


def line_count(text: str) -> int:
    """How many lines ``text.splitlines()`` gives, without making them (only for text whose
    line breaks are all ``\n``, as in a file that is cut)."""
    return text.count("\n") + (not text.endswith("\n") and text != "")


def _front_matter_end(text: str) -> tuple[int, int] | None:
    """The first line after the front matter and where it begins in ``text`` ((0, 0)
    without front matter); None if it never closes.

    A YAML comment is a ``#`` line: no cut may fall inside the front matter.
    """
    first = text.find("\n")
    if first < 0:
        first = len(text)
    if text[:first].rstrip() != "---":
        return 0, 0
    closing = _FRONT_MATTER_CLOSE.search(text, first)
    if closing is None:
        return None
    end = text.find("\n", closing.end())
    line = text.count("\n", 0, closing.start() + 1) + 1
    return line, (len(text) if end < 0 else end + 1)


def _cuts(text: str, body: int, offset: int) -> Iterator[tuple[int, int]]:
    """The line and offset of each top-level ``#``/``##`` heading after a blank line, from
    line ``body`` (at ``offset``) on.

    Only the lines that start with one of ``_SPECIAL`` can cut or open a block:
    a regular expression finds them, and the prose between, the inside of a
    fence and of display math are skipped in C. Fences are followed exactly
    when they open at the start of a line; one that opens indented (it may
    belong to a list item), and any multi-line HTML block, makes the scan give
    up, and then the file is parsed whole.
    """
    number, at = body, offset
    start = offset if text[offset : offset + 1] in _SPECIAL else _next_special(text, offset)
    while start >= 0:
        number += text.count("\n", at, start)
        at = start
        end = text.find("\n", start)
        line = text[start : end if end >= 0 else len(text)]
        # The line before, or True at the body's first line (as if after a blank one).
        previous_blank = number == body or _blank_line_before(text, start)
        if previous_blank and number > body and _HEADING.match(line):
            yield number, start
        elif (fence := _opens_fence(line)) is not None:
            closing = _closing_fence(fence).search(text, end) if end >= 0 else None
            if closing is None:
                return  # the fence runs to the end of the file: no cut after it
            end = closing.end()
        else:
            _refuse_html_block(line)
            end = _display_math_end(text, line, end, previous_blank)
        start = _next_special(text, end) if end >= 0 else -1


def _blank_line_before(text: str, start: int) -> bool:
    """Whether the line before the one that begins at ``start`` (> 0) is blank."""
    return not text[text.rfind("\n", 0, start - 1) + 1 : start - 1].strip()


def _next_special(text: str, position: int) -> int:
    """Where the next line after ``position`` that starts with one of ``_SPECIAL`` begins
    (-1: none does)."""
    found = _SPECIAL_LINE.search(text, position)
    return found.start() + 1 if found is not None else -1


@functools.cache
def _closing_fence(fence: str) -> re.Pattern[str]:
    """A line that closes a fence opened by ``fence``, searched from a line break on: at
    least as many of its marker, indented at most three spaces, then only whitespace."""
    return re.compile(rf"\n {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[^\S\n]*(?=\n|\Z)")


def _display_math_end(text: str, line: str, end: int, previous_blank: bool) -> int:
    """Where the ``$$`` block that ``line`` opens (it ends at offset ``end`` of ``text``,
    -1 for the last line) ends: its closing line's end; ``end`` when it opens none.

    As the dollarmath plugin reads it: ``$$`` starts the line and does not
    close on it, and a later line ends with ``$$`` (else it is no block). Such
    a block cannot interrupt a paragraph, so after a line of text it may be
    prose or a block: the scan gives up rather than guess.
    """
    stripped = line.strip()
    if not line.lstrip(" ").startswith("$$") or len(line) - len(line.lstrip(" ")) > 3:
        return end
    if (len(stripped) > 3 and stripped.endswith("$$")) or "$$" in stripped[2:]:
        return end  # closed on its own line, or not a block at all
    closing = _MATH_CLOSE.search(text, end) if end >= 0 else None
    if closing is None:
        return end
    if not previous_blank or line != line.lstrip(" "):
        raise _Unsure
    return closing.end()


def _opens_fence(line: str) -> str | None:
    opened = _FENCE.match(line)
    if opened is None:
        return None
    marker = opened.group(2)
    if marker[0] == "`" and "`" in line[opened.end() :]:
        return None  # not a fence: a backtick fence's info string has no backtick
    if opened.group(1):
        raise _Unsure  # indented: maybe a fence inside a list item
    return marker


def _refuse_html_block(line: str) -> None:
    """Give up (``_Unsure``) on a line that may open a multi-line HTML block.

    Only a complete one-line comment (an item's metadata) is allowed at the
    start of a line: whether any other HTML opens a block at all depends on
    the paragraph around it.
    """
    text = line.lstrip()
    if text.startswith("<") and not _ONE_LINE_COMMENT.fullmatch(text.rstrip()):
        raise _Unsure
