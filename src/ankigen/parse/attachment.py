"""What attaches to an item from outside its question: ``check`` blocks and metadata comments.

- A ``check`` fence belongs to the last item of its ``##`` section, wherever
  the walker is (it also closes the open item); with no item before it in the
  section it is an error (AG128).
- A ``formulas`` fence belongs to the file: its definitions serve every check.
- A metadata comment (``<!-- id: … -->``) belongs to the open item, in
  ``InAnswer`` or ``AwaitingMetadata``: at the end of the item's last paragraph,
  or alone on the line right after the item. It also ends the item (format
  §15): the functions say whether it did, and the walker goes ``Outside``.

Each function changes only the draft, section or list it is given; the
walker's state stays the walker's (``parse.states``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NamedTuple

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.model import CodeBlock
from ankigen.parse import problems, token_meta
from ankigen.parse.metadata import is_comment, parse_comment
from ankigen.parse.paragraph import Paragraph, line_of, trailing_comment
from ankigen.parse.states import AwaitingMetadata, Draft, InAnswer, ItemState, Section

#: The fenced blocks that attach to an item or to the file rather than to an answer.
ATTACHED_FENCES = ("check", "formulas")


def is_attached_fence(token: Token) -> bool:
    """True for a ``check`` or ``formulas`` fence."""
    return token.type == "fence" and token.info.strip() in ATTACHED_FENCES


def attach_fence(
    fence: Token, section: Section, formulas: list[CodeBlock], lines: Sequence[str], sink: Sink
) -> None:
    """File a ``formulas`` fence under ``formulas``, a ``check`` under the section's last item."""
    problems.unclosed_fence(fence, lines, sink)
    # Interned: one "check" string for the tens of thousands of blocks of a big deck.
    code = CodeBlock(
        sys.intern(fence.info.strip()),
        fence.content,
        line_of(fence) + 1,
        token_meta.quote_expansions(fence),  # its quotes read with the card's macros
    )
    if code.kind == "formulas":
        formulas.append(code)
        return
    if section.last_item is None:
        sink.error(
            line_of(fence),
            Code.CHECK_WITHOUT_ITEM.message(),
            column=problems.fence_column(fence, lines),
            code=Code.CHECK_WITHOUT_ITEM,
        )
        return
    section.last_item.checks.append(code)


def metadata_target(state: ItemState) -> Draft | None:
    """The item a metadata comment read in ``state`` would belong to, if any."""
    if isinstance(state, InAnswer | AwaitingMetadata):
        return state.item
    return None


def attach_trailing_metadata(paragraph: Paragraph, state: ItemState, sink: Sink) -> bool:
    """A comment ending ``paragraph`` sets the open item's metadata; True if it is metadata
    (which ends the item)."""
    comment = trailing_comment(paragraph.children)
    target = metadata_target(state)
    if comment is not None and target is not None:
        # The comment ends the paragraph, and may run over several of its last lines.
        breaks = comment.count("\n")
        source_lines = paragraph.source.rstrip("\n").split("\n")
        first = source_lines[max(len(source_lines) - 1 - breaks, 0)]
        column = first.rfind(comment.split("\n", 1)[0]) + 1
        return _apply(target, comment, paragraph.end_line - breaks, sink, column)
    return False


class AfterItem(NamedTuple):
    """What a comment on the line after an item did: taken as the item's, and ending it."""

    taken: bool
    ends_item: bool


def attach_metadata_after(html_block: Token, state: ItemState, sink: Sink) -> AfterItem:
    """A comment alone on the line right after the open item sets its metadata."""
    target = metadata_target(state)
    if target is None or not is_comment(html_block.content):
        return AfterItem(taken=False, ends_item=False)
    if line_of(html_block) != target.last_line + 1:
        return AfterItem(taken=False, ends_item=False)
    ends = _apply(target, html_block.content, line_of(html_block), sink, 1)
    return AfterItem(taken=True, ends_item=ends)


def _apply(draft: Draft, comment: str, line: int, sink: Sink, column: int) -> bool:
    """Set ``draft``'s metadata from ``comment``; False for a remark (``<!-- TODO -->``)."""
    metadata = parse_comment(comment, line, sink, column)
    if metadata is not None:
        draft.metadata = metadata
    return metadata is not None
