"""Cut a content file into sections that parse alone exactly as they parse in the file.

A top-level ``#`` or ``##`` ATX heading ends every block before it (paragraph,
list, quote, table), and the walker starts afresh at each one (it closes the
open item and resets the section). So the text before such a heading and the
text from it on give the same tokens, line for line, whether markdown-it
reads them together or apart. A heading counts as a cut only where that is
certain:

* at the start of a line, after a blank line (so no paragraph or HTML block
  of types 6 and 7 runs on into it);
* outside fenced code and outside a multi-line HTML block of types 1-5
  (comments, ``<script>``, ``<pre>``... run across blank lines), tracked
  conservatively: anything that may open one suppresses cuts until it closes.

CommonMark reads link reference definitions from the whole document, so a
file with anything that may be one (``]:``) is not cut at all; nor is a file
with carriage returns (markdown-it normalises them, and line numbers would
then be counted differently).
"""

from __future__ import annotations

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
    lines = text.splitlines()
    starts = section_starts(text, lines)
    return None if starts is None else list(sections_of(text, lines, starts))


def section_starts(text: str, lines: list[str]) -> list[int] | None:
    """The first line of every section (``lines`` is ``text.splitlines()``); None: parse whole.

    A file with line breaks other than ``\n`` is not cut: ``splitlines`` and
    markdown-it would count its lines differently.
    """
    if any(mark in text for mark in _NOT_CUT):
        return None
    body = _front_matter_end(lines)
    if body is None:
        return None
    try:
        return [0, *_cut_lines(lines, body)]
    except _Unsure:
        return None


def sections_of(text: str, lines: list[str], starts: list[int]) -> Iterator[Section]:
    """The sections, one at a time: each one's text is cut from the file's when it is parsed.

    ``lines`` is read here, at once, and not kept.
    """
    offsets = section_bounds(text, lines, starts)
    return (
        Section(start, text[offsets[number] : offsets[number + 1]])
        for number, start in enumerate(starts)
    )


def section_bounds(text: str, lines: list[str], starts: list[int]) -> list[int]:
    """Where each section begins in ``text``, then the text's end (``len(starts) + 1`` offsets).

    Section ``n`` is ``text[bounds[n] : bounds[n + 1]]``.
    """
    return [*_offsets(lines, starts), len(text)]


def _offsets(lines: list[str], starts: list[int]) -> list[int]:
    """Where each start line begins in the text (every line ends with one "\n")."""
    offsets: list[int] = []
    position = line = 0
    for start in starts:
        position += sum(len(lines[n]) + 1 for n in range(line, start))
        line = start
        offsets.append(position)
    return offsets


def _front_matter_end(lines: list[str]) -> int | None:
    """The first line after the front matter (0 without one); None if it never closes.

    A YAML comment is a ``#`` line: no cut may fall inside the front matter.
    """
    if not lines or lines[0].rstrip() != "---":
        return 0
    for number in range(1, len(lines)):
        if lines[number].startswith(("---", "...")):
            return number + 1
    return None


def _cut_lines(lines: list[str], body: int) -> list[int]:
    """Lines where a top-level ``#``/``##`` heading follows a blank line.

    Fences and HTML blocks are followed exactly when they open at the start
    of a line; one that opens indented (it may belong to a list item) makes
    the scan give up, and then the file is parsed whole.
    """
    cuts: list[int] = []
    fence: str | None = None  # the open fence's marker run, e.g. "```"
    html_end: re.Pattern[str] | None = None  # what ends the open HTML block
    math_end = -1  # the last line of the open `$$` block
    previous_blank = True
    for number in range(body, len(lines)):
        line = lines[number]
        if fence is None and html_end is None and number > math_end and line[:1] not in _SPECIAL:
            previous_blank = not line.strip()
            continue  # the common case: a line of prose opens and cuts nothing
        if number <= math_end:
            pass  # inside display math, which may hold blank lines and anything else
        elif fence is not None:
            fence = None if _closes(line, fence) else fence
        elif html_end is not None:
            html_end = None if html_end.search(line) else html_end
        elif previous_blank and number > body and _HEADING.match(line):
            cuts.append(number)
        else:
            fence = _opens_fence(line)
            if fence is None:
                html_end = _opens_html_block(line)
                math_end = _display_math_end(lines, number, previous_blank)
        previous_blank = not line.strip()
    return cuts


def _display_math_end(lines: list[str], number: int, previous_blank: bool) -> int:
    """The closing line of a ``$$`` block opened on line ``number`` (-1: none opens).

    As the dollarmath plugin reads it: ``$$`` starts the line and does not
    close on it, and a later line ends with ``$$`` (else it is no block). Such
    a block cannot interrupt a paragraph, so after a line of text it may be
    prose or a block: the scan gives up rather than guess.
    """
    text = lines[number].strip()
    if (
        not lines[number].lstrip(" ").startswith("$$")
        or len(lines[number]) - len(lines[number].lstrip(" ")) > 3
    ):
        return -1
    if (len(text) > 3 and text.endswith("$$")) or "$$" in text[2:]:
        return -1  # closed on its own line, or not a block at all
    for later in range(number + 1, len(lines)):
        if lines[later].strip().endswith("$$"):
            if not previous_blank or lines[number] != lines[number].lstrip(" "):
                raise _Unsure
            return later
    return -1


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


def _closes(line: str, fence: str) -> bool:
    closing = _FENCE.match(line)
    if closing is None:
        return False
    marker = closing.group(2)
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line[closing.end() :].strip()


def _opens_html_block(line: str) -> re.Pattern[str] | None:
    """What ends the multi-line HTML block this line opens (None: it opens none).

    Only a complete one-line comment (an item's metadata) is allowed at the
    start of a line: every other HTML block makes the scan give up, since
    whether it opens a block at all depends on the paragraph around it.
    """
    text = line.lstrip()
    if not text.startswith("<"):
        return None
    if _ONE_LINE_COMMENT.fullmatch(text.rstrip()):
        return None
    raise _Unsure
