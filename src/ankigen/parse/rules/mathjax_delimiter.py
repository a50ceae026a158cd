"""Anki's MathJax delimiters ``\\(`` and ``\\[`` written in text: a near miss (format §13).

They are not this format's math. Written ``\\(`` markdown shows ``(``; written
``\\\\(`` or ``&#92;(`` it shows ``\\(``, which ``anki_markup.inert`` keeps from
MathJax. Either way the author probably meant ``$…$`` or ``$$…$$``. This
inline rule reads those spellings exactly as markdown-it's escape and entity
rules would, marking each token it makes; a core rule then notes, on the
paragraph's inline token, each near miss's place (``token_meta.MathjaxPlace``:
line offset, column 1-based within the source line, spelling).
"""

from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline.state_inline import StateInline

from ankigen.parse import token_meta
from ankigen.parse.token_meta import MathjaxPlace, MathjaxSpelling

#: Spelling -> the text markdown-it makes of it (its escape and entity rules).
_SPELLING = re.compile(r"\\\\(?=[(\[])|\\[(\[]|&(?:#92|#x0*5c|bsol|Backslash);(?=[(\[])", re.I)


def mathjax_delimiter_plugin(md: MarkdownIt) -> None:
    """Register the inline rule (before ``escape`` and ``entity``) and the core rule."""
    md.inline.ruler.before("escape", "mathjax_delimiter", _tokenize)
    md.core.ruler.after("inline", "mathjax_delimiter_places", _note_places)


def _tokenize(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] not in "\\&":
        return False
    match = _SPELLING.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        spelling = match.group(0)
        token = state.push("text_special", "", 0)
        token.content = spelling[-1] if spelling[0] == "\\" and spelling[1] != "\\" else "\\"
        token.markup = spelling
        token.info = "escape"
        shown = spelling if spelling[1] in "([" else spelling + state.src[match.end()]
        token_meta.set_mathjax_spelling(token, MathjaxSpelling(match.start(), shown))
    state.pos = match.end()
    return True


def _note_places(state: StateCore) -> None:
    lines = state.src.splitlines()
    for block in state.tokens:
        if block.type != "inline" or not block.children or not block.map:
            continue
        spellings = [token_meta.mathjax_spelling(child) for child in block.children]
        if not any(spellings):
            continue
        placer = _Placer(block.content, lines, block.map[0])
        places = [placer.place(spelling) for spelling in spellings if spelling is not None]
        token_meta.set_mathjax_places(block, places)


class _Placer:
    """Places the near misses of one inline block: each line of it is measured once, so
    a line of thousands of ``\\(`` takes linear time, not a scan of the line per one."""

    def __init__(self, content: str, lines: list[str], first_line: int) -> None:
        self._content = content
        self._lines = lines
        self._first_line = first_line
        self._starts = [0] + [match.end() for match in re.finditer("\n", content)]
        self._indents: dict[int, int] = {}

    def place(self, spelling: MathjaxSpelling) -> MathjaxPlace:
        """The line offset in the block, the 1-based source column, and the spelling."""
        offset = spelling.offset
        line_offset = bisect.bisect_right(self._starts, offset) - 1
        line_start = self._starts[line_offset]
        return MathjaxPlace(
            line_offset, self._indent(line_offset) + offset - line_start + 1, spelling.shown
        )

    def _indent(self, line_offset: int) -> int:
        """Where the block's line ``line_offset`` starts in its source line (a quote's ``>``)."""
        indent = self._indents.get(line_offset)
        if indent is None:
            start = self._starts[line_offset]
            end = self._content.find("\n", start)
            content_line = self._content[start : end if end >= 0 else len(self._content)]
            index = self._first_line + line_offset
            source = self._lines[index] if index < len(self._lines) else content_line
            indent = max(source.find(content_line), 0) if content_line else 0
            self._indents[line_offset] = indent
        return indent
