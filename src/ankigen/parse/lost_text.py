"""Format §15: the shapes that almost always mean text fell off a card, and the prose log.

Every block of a content file is on a card or is prose. The walker records
each prose block here (``ProseLog.add``), for ``ankigen preview``, and asks
this module about three shapes, each a warning at its line:

- a question paragraph holding only an image or a formula right after a prose
  paragraph ending in ``:`` (AG140), or an answer's last paragraph ending so:
  the paragraph was meant as the question;
- prose between an item and its ``check`` block (AG141): it shows on no card;
- an item whose answer is empty, followed by a ``#``/``##`` heading and text
  (AG142): the heading ended the item, so its text fell off the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.model import ItemKind, Prose
from ankigen.parse.metadata import is_comment
from ankigen.parse.near_miss import Located, report
from ankigen.parse.paragraph import BREAKS
from ankigen.parse.states import Draft, InAnswer, ItemState, Outside
from ankigen.syntax import Finding, habits

_FORMULA_OR_IMAGE = ("math_inline", "math_inline_double", "image")


@dataclass
class ProseLog:
    """The prose blocks of a file so far, and what the §15 shapes need to know of them."""

    blocks: list[Prose] = field(default_factory=list)
    #: The line of the block just read when it is a prose paragraph ending in ``:``.
    colon_line: int | None = None
    #: The first prose line since the section's last item (reset by the next item).
    after_item: int | None = None
    #: AG142 across a section cut: the line of a reveal item with an empty answer that
    #: is still open at the section's end, and of the section's opening ``#``/``##``
    #: heading when text on no card follows it (0: none).
    empty_at_end: int = 0
    heading_then_text: int = 0
    #: An item with an empty answer and the ``#``/``##`` heading that ended it (AG142);
    #: item line 0 for the heading a section opens with (its item is in the section before).
    cut_by_heading: tuple[int, int] | None = None
    #: Mochi's card (AG533): the question line of the block just read when it is a
    #: paragraph on no item ending in ``?``; then, once a thematic break follows it, the
    #: break's line and its finding, until the block after the break is read.
    question: str | None = None
    question_before: str | None = None
    break_after_question: tuple[int, Finding] | None = None
    break_before: tuple[int, Finding] | None = None

    def answer_paragraph(self, line: int, text: str) -> None:
        """A paragraph that extended an open answer: one ending in ``:`` may have been
        meant as the start of the next question (AG140)."""
        if text.rstrip().endswith(":"):
            self.colon_line = line
        self.question = habits.question_line(text)

    def start_block(self) -> tuple[int | None, tuple[int, int] | None]:
        """What the block before this one left for the §15 shapes (and forget it)."""
        before = self.colon_line, self.cut_by_heading
        self.colon_line = self.cut_by_heading = None
        self.question_before, self.question = self.question, None
        self.break_before, self.break_after_question = self.break_after_question, None
        return before

    def thematic_break(self, hr: Token, lines: Sequence[str]) -> None:
        """A thematic break right after a question on no item: Mochi's card if a paragraph
        on no item follows it (AG533, reported by :meth:`end_block`)."""
        if self.question_before is None or hr.map is None:
            return
        line = hr.map[0] + 1
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        if source.strip():
            found = habits.dash_break(self.question_before, source)
            self.break_after_question = (line, found)

    def end_block(
        self,
        block: Sequence[Token],
        state: ItemState,
        cut_by_heading: tuple[int, int] | None,
        sink: Sink,
    ) -> None:
        """AG142 once the block after a heading that cut an empty answer is text on no card;
        AG533 once the block after a break after a question is a paragraph on no item."""
        if self.break_before is not None and _paragraph_on_no_item(block, state):
            line, found = self.break_before
            report(Located(line, found.start + 1, found), sink)
        if cut_by_heading is None or not is_text_on_no_card(block, state):
            return
        item_line, heading_line = cut_by_heading
        if item_line:
            empty_answer_before_heading(sink, item_line, heading_line)
        else:
            self.heading_then_text = heading_line

    def end_walk(self, state: ItemState) -> None:
        """An empty answer still open at a section's end: the file joins it with the next
        section's opening heading (AG142 across a section cut)."""
        if isinstance(state, InAnswer) and empty_reveal(state.item):
            self.empty_at_end = state.item.line

    def check_fence(self, fence: Token, item: Draft | None, sink: Sink) -> None:
        """AG141: prose between the section's last item and this ``check`` block."""
        prose_line, self.after_item = self.after_item, None
        if fence.info.strip() == "check" and prose_line is not None and item is not None:
            fence_line = fence.map[0] + 1 if fence.map else 0
            prose_before_check(sink, prose_line, item.line, fence_line)

    def add(self, line: int, text: str, *, paragraph: bool, has_item: bool) -> None:
        """Record a prose block; ``has_item`` when an item stands before it in its section."""
        if not text.strip() or is_comment(text):
            return
        self.blocks.append(Prose(line, text))
        if paragraph and text.rstrip().endswith(":"):
            self.colon_line = line
        if paragraph:
            self.question = habits.question_line(text)
        if has_item and self.after_item is None:
            self.after_item = line


def _paragraph_on_no_item(block: Sequence[Token], state: ItemState) -> bool:
    """True when ``block``, just walked into ``state``, is a paragraph that made no item."""
    return block[0].type == "paragraph_open" and isinstance(state, Outside)


def setext_question(heading: Token, inline: Token, lines: Sequence[str], sink: Sink) -> None:
    """AG532: a question ending in ``?`` with a ``---`` or ``===`` line under it, which
    markdown makes a heading (Mochi's card)."""
    if heading.markup not in ("-", "=") or heading.map is None:
        return  # an ATX heading ('## Why?') is meant as one
    question = habits.question_line(inline.content)
    line = heading.map[1]  # the underline: the heading's last line
    if question is None or not 0 < line <= len(lines):
        return
    found = habits.dash_heading(question, lines[line - 1])
    report(Located(line, found.start + 1, found), sink)


def only_formula_or_image(question: Sequence[Token]) -> bool:
    """True when a question shows nothing but formulas and images."""
    shown = [
        t
        for t in question
        if t.type not in BREAKS and not (t.type == "text" and not t.content.strip())
    ]
    return bool(shown) and all(t.type in _FORMULA_OR_IMAGE for t in shown)


def empty_reveal(item: Draft) -> bool:
    """True for a reveal item whose answer holds nothing but white space and comments."""
    if item.kind is not ItemKind.REVEAL or item.blocks:
        return False
    return all(
        t.type in BREAKS
        or (t.type == "text" and not t.content.strip())
        or (t.type == "html_inline" and is_comment(t.content))
        for t in item.lead
    )


def is_text_on_no_card(block: Sequence[Token], state: ItemState) -> bool:
    """True when ``block``, just walked into ``state``, is text that makes no card."""
    if block[0].type in ("heading_open", "hr", "html_block") or block[0].type == "fence":
        return False
    return isinstance(state, Outside)


def joined_sections(sink: Sink, empty_at_end: int, heading_then_text: int) -> None:
    """AG142 where a section cut falls between the item and its heading (``parse``)."""
    if empty_at_end and heading_then_text:
        empty_answer_before_heading(sink, empty_at_end, heading_then_text)


def question_after_colon(sink: Sink, line: int, question: Sequence[Token], prose_line: int) -> None:
    """AG140: a question of only a formula or image right after a paragraph ending in ``:``."""
    if not only_formula_or_image(question):
        return
    sink.warning(
        line,
        Code.QUESTION_AFTER_COLON.message(prose_line=prose_line),
        column=1,
        code=Code.QUESTION_AFTER_COLON,
    )


def prose_before_check(sink: Sink, prose_line: int, item_line: int, check_line: int) -> None:
    """AG141: prose between an item and its ``check`` block."""
    sink.warning(
        prose_line,
        Code.PROSE_BEFORE_CHECK.message(item_line=item_line, check_line=check_line),
        column=1,
        code=Code.PROSE_BEFORE_CHECK,
    )


def empty_answer_before_heading(sink: Sink, item_line: int, heading_line: int) -> None:
    """AG142: an empty answer, then a ``#``/``##`` heading followed by text."""
    sink.warning(
        item_line,
        Code.HEADING_CUTS_ANSWER.message(heading_line=heading_line),
        column=1,
        code=Code.HEADING_CUTS_ANSWER,
    )
