"""Format §15, nothing lost without a word: items written where no item can stand.

Only a paragraph of its own (at the top level or in a callout) is an item.
A ``:::`` inside a list item, a table cell, a block quote or a heading is text
of the block around it, on the answer before it or on no card at all, so the
item its author meant is silently lost: each is a warning at the ``:::``'s
line and column (AG135), as cloze syntax in such a block is (AG133). A quote
marked as a callout of a kind the format does not know (``> [!warning]``) is
a plain quote: its warning names the kinds the format knows (AG136).

A list item is where an outliner's cards stand (Logseq's ``- Term :: Definition``,
``- question #card``, ``- Q: …`` with ``A: …``): each list item's text is read
for the near misses of format §13.1, whose fix then says to write the item as
a paragraph of its own.

A ``:::`` inside an HTML block (``<div>Q ::: A</div>``, or a ``<div>`` line above
the item) is HTML, not markdown: it makes no card either (AG148); a comment
block is not looked into.

An HTML comment that never closes (``<!--`` with no ``-->``) is one HTML block
from its line to the end of the file, or of the list or quote it is in:
everything after it is on no card (AG139).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.parse import callout
from ankigen.parse.near_miss import Locator, inline_lines, masked_line, near_misses, report
from ankigen.parse.paragraph import line_of
from ankigen.syntax import Finding, separator

IN_BLOCK = Code.SEPARATOR_IN_BLOCK
IN_UNKNOWN_CALLOUT = Code.SEPARATOR_IN_UNKNOWN_CALLOUT
UNCLOSED_COMMENT = Code.UNCLOSED_COMMENT
NESTED_TOO_DEEP = Code.NESTED_TOO_DEEP
IN_HTML_BLOCK = Code.SEPARATOR_IN_HTML_BLOCK
#: The level of a token opened at markdown-it's nesting limit (``maxNesting``, 20).
_DEEPEST = 19

#: Each block that holds no item, as a message names it, and how to make its text one.
_PLACES = {
    "list_item_open": ("a list item", "without the list marker"),
    "td_open": ("a table cell", "outside the table"),
    "th_open": ("a table cell", "outside the table"),
    "blockquote_open": ("a block quote", "without '>', or in a callout ('> [!note]')"),
    "heading_open": ("a heading", "without the '#'"),
}
_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"
#: The first element an HTML block opens or closes (``<div class="card">``, ``</p>``).
_ELEMENT = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
#: An HTML comment inside a block (its ``:::`` is the comment's).
_COMMENT = re.compile(r"<!--.*?-->", re.S)


@dataclass(frozen=True)
class _Place:
    """The innermost block around some text: its opening token type, or a callout's kind."""

    opener: str
    unknown_kind: str | None = None

    def finding(self, start: int) -> Finding:
        """The warning for a ``:::`` at ``start`` of a line of this block."""
        if self.unknown_kind is not None:
            known = ", ".join(callout.KINDS[:-1]) + " and " + callout.KINDS[-1]
            message = IN_UNKNOWN_CALLOUT.message(kind=self.unknown_kind, known=known)
            return Finding(start, separator.SEPARATOR, message, IN_UNKNOWN_CALLOUT, True)
        place, advice = _PLACES[self.opener]
        message = IN_BLOCK.message(place=place, advice=advice)
        return Finding(start, separator.SEPARATOR, message, IN_BLOCK, is_warning=True)


def check_block(block: Sequence[Token], lines: Sequence[str], sink: Sink, *, walked: bool) -> None:
    """Warn of each ``:::`` in ``block`` that makes no card, and of a comment never closed.

    ``walked``: the walker reads a known callout's blocks one by one (each comes
    back here), so the callout itself is no block around them.
    """
    if block[0].type == "paragraph_open":
        return  # the common case: a top-level paragraph's items are the walker's
    _too_deep(block, sink)
    if walked and block[0].type == "blockquote_open" and callout.callout_kind(list(block[:4])):
        return
    places: list[_Place] = []  # the blocks around the token, innermost last
    for index, token in enumerate(block):
        if token.type == "html_block":
            unclosed_comment(token, lines, sink)
            html_block_separators(token, lines, sink)
        elif token.type in _PLACES:
            quote = token.type == "blockquote_open"
            kind = callout.unknown_kind(block[index : index + 4]) if quote else None
            places.append(_Place(token.type, kind))
        elif token.nesting == -1 and token.type.replace("_close", "_open") in _PLACES:
            places.pop()
        elif token.type == "inline" and places and token.map and token.children:
            _separators(token, places[-1], lines, sink)
            if places[-1].opener == "list_item_open":
                line = token.map[0] + 1
                for at in near_misses(token.children, line, lines, separator.IN_LIST_ITEM):
                    report(at, sink)


def _too_deep(block: Sequence[Token], sink: Sink) -> None:
    """AG146: a container opened at markdown-it's nesting limit, where it stops reading
    (the text nested inside is dropped without a token)."""
    for token in block:
        if token.nesting == 1 and token.level >= _DEEPEST and token.map is not None:
            # markdown-it stops reading at its limit and gives the containers around it
            # every line to their end: often the rest of the section, items and all.
            first, last = token.map[0] + 1, token.map[1]
            rest = f", and so is every line after it up to line {last}" if last > first else ""
            message = NESTED_TOO_DEEP.message(depth=token.level + 1, rest=rest)
            sink.warning(first, message, column=1, code=NESTED_TOO_DEEP)
            return


def _separators(inline: Token, place: _Place, lines: Sequence[str], sink: Sink) -> None:
    """Each ``:::`` separator in an inline token of a block that holds no item."""
    children = inline.children or []
    if not any(child.type == "text" and separator.SEPARATOR in child.content for child in children):
        return  # the common case, cheaply
    assert inline.map is not None
    locator = Locator(lines)
    for line, tokens in inline_lines(children, inline.map[0] + 1):
        # code, math and clozes masked: a ':::' in them is no separator
        for match in separator.matches(masked_line(tokens)):
            report(locator.locate(line, place.finding(match.start())), sink)


def html_block_separators(token: Token, lines: Sequence[str], sink: Sink) -> None:
    """AG148: each ``:::`` separator in an HTML block (``<div>Q ::: A</div>``), whose text
    is HTML, not markdown: it makes no card. A comment block is left alone."""
    content = token.content
    if separator.SEPARATOR not in content or token.map is None:
        return  # the common case, cheaply
    if content.lstrip().startswith(_COMMENT_OPEN):
        return  # a comment: ignored, or an item's metadata
    element = _ELEMENT.search(content)
    if element is None:
        return  # '<?…', '<!DOCTYPE': no element to name
    message = IN_HTML_BLOCK.message(element=element.group(1).lower())
    shown = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), content)
    locator = Locator(lines)
    for offset, text in enumerate(shown.split("\n")):
        for match in separator.matches(text):
            finding = Finding(match.start(), separator.SEPARATOR, message, IN_HTML_BLOCK, True)
            report(locator.locate(token.map[0] + 1 + offset, finding), sink)


def unclosed_comment(token: Token, lines: Sequence[str], sink: Sink) -> None:
    """AG139: an HTML block opened by ``<!--`` that holds no ``-->``: it ran to the end."""
    if not token.content.lstrip().startswith(_COMMENT_OPEN) or _COMMENT_CLOSE in token.content:
        return
    line = line_of(token)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    column = source.find(_COMMENT_OPEN) + 1  # 0 when markdown-it gave it no place
    sink.warning(line, UNCLOSED_COMMENT.message(), column=column, code=UNCLOSED_COMMENT)
