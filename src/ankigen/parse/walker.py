"""Walk the block token stream and cut it into items, sections and callouts.

A small driver over the item states of ``parse.states`` (outside an item,
in an answer, awaiting metadata): a paragraph with a ``:::`` separator or
cloze syntax starts an item; following blocks (``###`` to ``######`` headings
too) extend the open answer until a ``#``/``##`` heading, thematic break,
``check``/``formulas`` fence, a callout, the next item or the item's metadata
comment closes it (format §15). Blocks on no card are prose, kept in
``WalkResult.prose``; ``parse.lost_text`` warns of the shapes where text
probably fell off a card. Each construct is read in a module of its own: paragraphs in
``parse.paragraph``, headings and sections in ``parse.headings``,
``check``/``formulas`` blocks and metadata comments in ``parse.attachment``,
clozes in ``parse.cloze``, callouts in ``parse.callout``, checks of other
blocks in ``parse.problems``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.model import CodeBlock, ItemKind
from ankigen.parse import callout, lost_text, problems, stray_items, token_meta
from ankigen.parse.attachment import (
    attach_fence,
    attach_metadata_after,
    attach_trailing_metadata,
    is_attached_fence,
)
from ankigen.parse.cloze import (
    has_cloze,
    opener_column,
    read_cloze_item,
    report_cloze_after_separator,
)
from ankigen.parse.headings import read_heading
from ankigen.parse.near_miss import fences_after_in_code, near_misses, report
from ankigen.parse.paragraph import (
    Paragraph,
    Split,
    display_math_paragraph,
    end_line_of,
    items_of,
    lead_line,
    line_of,
    note_lines,
    paragraph_of,
    paragraph_tokens,
    source_of,
    split_blocks,
    split_source,
    strip_trailing_breaks,
)
from ankigen.parse.states import AwaitingMetadata, Draft, InAnswer, ItemState, Outside, Section
from ankigen.syntax import separator

__all__ = ["Draft", "Paragraph", "WalkResult", "Walker", "split_blocks"]

_CLOZE_IN_ANSWER = Code.CLOZE_IN_ANSWER_BLOCK.message()
_CLOZE_IN_PROSE = Code.CLOZE_OUTSIDE_ITEM.message()


@dataclass
class WalkResult:
    """Everything the walker found in one file."""

    title: str | None = None
    drafts: list[Draft] = field(default_factory=list)
    formulas: list[CodeBlock] = field(default_factory=list)
    prose: lost_text.ProseLog = field(default_factory=lost_text.ProseLog)


class Walker:
    """Turns the token stream of one file into drafts; its problems go to ``sink``."""

    def __init__(self, lines: Sequence[str], sink: Sink) -> None:
        self._lines = lines
        self._sink = sink
        self.result = WalkResult()
        self._state: ItemState = Outside()
        self._section = Section()
        self._callout: str | None = None  # the kind of the callout being read, if any
        self._callout_title: str | None = None  # and its title, for the context line
        self._walked_any = False
        #: The line of a code fence written after ':::' (AG147), until the fence meant to
        #: close it: that one opens a block instead, whose problems are this line's.
        self._fence_after_separator: int | None = None

    @property
    def state(self) -> ItemState:
        """The item state the walker is in (``parse.states``), after the blocks walked so far."""
        return self._state

    def walk(self, tokens: Sequence[Token]) -> WalkResult:
        """Walk the top-level blocks of a file (or of a section, ``parse.sections``)."""
        for block in split_blocks(tokens):
            self._block(block)
        self.result.prose.end_walk(self._state)
        return self.result

    # -- blocks ---------------------------------------------------------

    def _block(self, block: list[Token]) -> None:
        first = block[0]
        kind = first.type
        if kind == "front_matter":
            return
        opening, self._walked_any = not self._walked_any, True
        colon_line, cut_by_heading = self.result.prose.start_block()
        stray_items.check_block(block, self._lines, self._sink, walked=self._callout is None)
        if kind == "heading_open":
            self._heading(block, opening)
        elif kind == "hr":
            self._state = Outside()
            self.result.prose.thematic_break(first, self._lines)
        elif kind == "paragraph_open":
            paragraph = paragraph_of(block)
            self._near_misses(paragraph)
            self._paragraph(paragraph, colon_line)
        elif is_attached_fence(first):
            self._state = Outside()
            self.result.prose.check_fence(first, self._section.last_item, self._sink)
            attach_fence(first, self._section, self.result.formulas, self._lines, self._sink)
        elif kind == "blockquote_open" and self._callout is None and callout.callout_kind(block):
            self._callout_block(block, callout.callout_kind(block) or "")
        elif (
            kind == "html_block"
            and (after := attach_metadata_after(first, self._state, self._sink)).taken
        ):
            if after.ends_item:
                self._state = Outside()
            return
        elif kind == "math_block":
            self._math_block(block)
        else:
            self._extend(block)
        self.result.prose.end_block(block, self._state, cut_by_heading, self._sink)

    def _heading(self, block: list[Token], opening: bool) -> None:
        """``###``-``######`` in an open answer are part of it; any other heading ends the item."""
        first = block[0]
        lost_text.setext_question(first, block[1], self._lines, self._sink)
        if first.tag not in ("h1", "h2"):
            if isinstance(self._state, InAnswer):
                self._extend(block)
                return
            self._record_prose(block)
        elif isinstance(self._state, InAnswer) and lost_text.empty_reveal(self._state.item):
            self.result.prose.cut_by_heading = (self._state.item.line, line_of(first))
        elif opening:
            self.result.prose.cut_by_heading = (0, line_of(first))  # a section's opening
        self._state = Outside()
        after = read_heading(first, block[1], self.result.title, self._section)
        if after.section is not self._section:
            self.result.prose.after_item = None
        self.result.title, self._section = after.title, after.section

    def _math_block(self, block: list[Token]) -> None:
        """A display formula holding a cloze is a cloze item; any other is part of the answer."""
        formula = display_math_paragraph(block[0])
        self._near_misses(formula)
        if has_cloze(formula.children):
            self._paragraph(formula)
        else:
            self._extend(block)

    def _extend(self, block: list[Token]) -> None:
        """A block that is not an item: part of the open answer, else prose."""
        if block[0].type == "fence":
            self._fence(block[0])
        if not isinstance(self._state, InAnswer):
            self._prose(block)
            self._record_prose(block)
            return
        for token in block:
            if token.type == "inline" and token.map and token.children:
                first = token.map[0] + 1
                note_lines(token.children, first)
                if has_cloze(token.children):
                    column = opener_column(self._lines[first - 1])
                    self._sink.error(
                        first, _CLOZE_IN_ANSWER, code=Code.CLOZE_IN_ANSWER_BLOCK, column=column
                    )
                problems.url_images(token.children, first, self._lines, self._sink)
                problems.shown_as_written(token.children, first, self._lines, self._sink)
                strays = [first + n for n in token_meta.stray_dollar_lines(token)]
                problems.stray_dollars(self._lines, strays, self._sink)
        item = self._state.item
        item.blocks.extend(block)
        item.answer_source.append(source_of(block, self._lines))
        item.last_line = end_line_of(block)

    def _fence(self, fence: Token) -> None:
        """An ordinary code block's problems; a bare fence after a fence written after
        ``:::`` (AG147) was meant to close that one, and its problems are said so."""
        glued = None if fence.info.strip() else self._fence_after_separator
        self._fence_after_separator = None
        problems.unclosed_fence(fence, self._lines, self._sink, meant_to_close=glued)
        if glued is not None:
            for at in fences_after_in_code(fence, self._lines):
                report(at, self._sink)

    def _prose(self, block: list[Token]) -> None:
        """Prose is no card; a cloze in it is most likely a card its author meant."""
        for token in block:
            if token.type != "inline" or not token.map or not has_cloze(token.children or []):
                continue
            line = token.map[0] + 1
            column = opener_column(self._lines[line - 1])
            self._sink.warning(line, _CLOZE_IN_PROSE, code=Code.CLOZE_OUTSIDE_ITEM, column=column)

    def _record_prose(self, block: list[Token]) -> None:
        """Keep a block on no card, as written, for the preview (format §15)."""
        has_item = self._section.last_item is not None
        text = source_of(block, self._lines)
        self.result.prose.add(line_of(block[0]), text, paragraph=False, has_item=has_item)

    def _callout_block(self, block: list[Token], kind: str) -> None:
        self._state = Outside()
        inner = split_blocks(block[1:-1])
        marker = paragraph_of(inner[0])
        rest = callout.after_marker_line(marker)
        if callout.marker_has_separator(marker, rest):
            self._sink.error(
                marker.line,
                Code.SEPARATOR_ON_CALLOUT_MARKER.message(),
                column=self._lines[marker.line - 1].find(":::") + 1,
                code=Code.SEPARATOR_ON_CALLOUT_MARKER,
            )
            # The marker line is on no card: its error belongs to no item, so a partial
            # build (format §19) never blames the item before the callout for it.
            line = self._lines[marker.line - 1]
            self.result.prose.add(marker.line, line, paragraph=False, has_item=False)
        self._callout = kind
        self._callout_title = callout.callout_title(marker.source)
        if rest.children:
            self._near_misses(rest)
            self._paragraph(rest)
        for sub in inner[1:]:
            self._block(sub)
        self._state = Outside()
        self._callout = self._callout_title = None

    # -- paragraphs and items ---------------------------------------------

    def _paragraph(self, paragraph: Paragraph, colon_line: int | None = None) -> None:
        for index, (piece, split) in enumerate(items_of(paragraph)):
            if index == 0 and split is not None and colon_line is not None:
                lost_text.question_after_colon(self._sink, piece.line, split[0], colon_line)
            self._paragraph_item(piece, split)

    def _paragraph_item(self, paragraph: Paragraph, split: Split | None) -> None:
        problems.stray_dollars(self._lines, paragraph.stray_dollar_lines, self._sink)
        in_answer = isinstance(self._state, InAnswer)
        if split is not None or in_answer or has_cloze(paragraph.children):
            # (in prose, which makes no card, a URL image is no problem)
            problems.url_images(paragraph.children, paragraph.line, self._lines, self._sink)
            problems.shown_as_written(paragraph.children, paragraph.line, self._lines, self._sink)
        question = paragraph.children if split is None else split[0]
        if has_cloze(question):
            self._start(ItemKind.CLOZE, paragraph, split)
            return
        if split is not None:
            if has_cloze(split[1]):
                report_cloze_after_separator(
                    self._lines, paragraph.line, paragraph.end_line, self._sink
                )
            self._start(ItemKind.REVEAL, paragraph, split)
            return
        if isinstance(self._state, InAnswer):
            item = self._state.item
            item.blocks.extend(paragraph_tokens(paragraph))
            item.answer_source.append(paragraph.source)
            item.last_line = paragraph.end_line
            self.result.prose.answer_paragraph(paragraph.line, paragraph.source)
            if attach_trailing_metadata(paragraph, self._state, self._sink):
                self._state = Outside()  # the metadata comment ends its item (format §15)
            return
        has_item = self._section.last_item is not None
        self.result.prose.add(paragraph.line, paragraph.source, paragraph=True, has_item=has_item)

    def _start(self, kind: ItemKind, paragraph: Paragraph, split: Split | None) -> None:
        if (self._fence_after_separator or paragraph.line) < paragraph.line:
            self._fence_after_separator = None  # a later item: no fence was meant to close it
        front = paragraph.children if split is None else split[0]
        lead: tuple[Token, ...] = () if split is None else split[1]
        if kind is ItemKind.CLOZE:
            extra = lead if split is not None else None
            read_cloze_item(front, extra, paragraph.line, self._lines, self._sink)
        question_source, answer_source = split_source(paragraph.source, front, split is not None)
        draft = Draft(
            kind=kind,
            line=paragraph.line,
            front=strip_trailing_breaks(front),
            lead=lead,
            lead_line=lead_line(paragraph, lead),
            question_source=question_source,
            answer_source=[answer_source],
            section=self._section.name,
            tags=[t for t in (self._section.tag, self._callout) if t],
            last_line=paragraph.end_line,
            callout_title=self._callout_title,
        )
        self.result.drafts.append(draft)
        self._section.last_item = draft
        self.result.prose.after_item = None
        self._state = InAnswer(draft)
        if attach_trailing_metadata(paragraph, self._state, self._sink):
            self._state = Outside()  # the metadata comment ends its item (format §15)
        elif split is None and kind is ItemKind.CLOZE:
            # Without ':::' a cloze item is its paragraph alone; only a
            # metadata comment on the next line may still attach to it.
            self._state = AwaitingMetadata(draft)

    # -- problems -------------------------------------------------------

    def _near_misses(self, paragraph: Paragraph) -> None:
        """Warn about syntax that almost makes a card (format section 13)."""
        for at in near_misses(paragraph.children, paragraph.line, self._lines):
            report(at, self._sink)
            if separator.is_fence_after(at.finding):
                self._fence_after_separator = at.line
