"""Walk the block token stream and cut it into items, sections and callouts.

A small driver over the item states of ``parse.states`` (outside an item,
in an answer, awaiting metadata): a paragraph with a ``:::`` separator or
cloze syntax starts an item; following blocks extend the open answer until a
heading, thematic break, ``check``/``formulas`` fence, a callout or the next
item closes it. Taking paragraphs apart is ``parse.paragraph``'s job,
callouts are ``parse.callout``'s, checks of other blocks ``parse.problems``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

from ankigen.diagnostics import Severity, Sink
from ankigen.model import CodeBlock, ItemKind
from ankigen.parse import callout, problems, token_meta
from ankigen.parse.cloze import cloze_problems, has_cloze, number_marks
from ankigen.parse.metadata import is_comment, parse_comment
from ankigen.parse.near_miss import Located, Locator, near_misses
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
    plain_text,
    source_of,
    split_blocks,
    split_source,
    strip_trailing_breaks,
    trailing_comment,
)
from ankigen.parse.slug import slugify
from ankigen.parse.states import AwaitingMetadata, Draft, InAnswer, ItemState, Outside, Section

__all__ = ["Draft", "Paragraph", "WalkResult", "Walker", "split_blocks"]

_CHECK_FENCES = ("check", "formulas")
_CLOZE_IN_ANSWER = (
    "cloze syntax inside a list, table or quote of an answer is not a cloze; "
    "write the cloze item as a paragraph of its own"
)


@dataclass
class WalkResult:
    """Everything the walker found in one file."""

    title: str | None = None
    drafts: list[Draft] = field(default_factory=list)
    formulas: list[CodeBlock] = field(default_factory=list)


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

    def walk(self, tokens: Sequence[Token]) -> WalkResult:
        """Walk the top-level blocks of a file."""
        for block in split_blocks(tokens):
            self._block(block)
        return self.result

    # -- blocks ---------------------------------------------------------

    def _block(self, block: list[Token]) -> None:
        first = block[0]
        kind = first.type
        if kind == "front_matter":
            return
        if kind == "heading_open":
            self._heading(first, block[1])
        elif kind == "hr":
            self._state = Outside()
        elif kind == "paragraph_open":
            paragraph = paragraph_of(block)
            self._near_misses(paragraph)
            self._paragraph(paragraph)
        elif kind == "fence" and first.info.strip() in _CHECK_FENCES:
            self._code_block(first)
        elif kind == "blockquote_open" and self._callout is None and callout.callout_kind(block):
            self._callout_block(block, callout.callout_kind(block) or "")
        elif kind == "html_block" and self._metadata_after(first):
            return
        elif kind == "math_block":
            self._math_block(block)
        else:
            self._extend(block)

    def _heading(self, open_token: Token, inline: Token) -> None:
        self._state = Outside()
        text = plain_text(inline.children or [])
        if open_token.tag == "h1":
            # A later `#` heading ends the current section; only the first names the deck.
            self.result.title = self.result.title if self.result.title is not None else text
            self._section = Section()
        elif open_token.tag == "h2":
            self._section = Section(text, slugify(text) or None)

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
            problems.unclosed_fence(block[0], self._lines, self._sink)
        if not isinstance(self._state, InAnswer):
            return
        for token in block:
            if token.type == "inline" and token.map and token.children:
                first = token.map[0] + 1
                note_lines(token.children, first)
                if has_cloze(token.children):
                    self._sink.error(first, _CLOZE_IN_ANSWER, code="AG124")
                problems.url_images(token.children, first, self._sink)
                strays = [first + n for n in token_meta.stray_dollar_lines(token)]
                problems.stray_dollars(self._lines, strays, self._sink)
        item = self._state.item
        item.blocks.extend(block)
        item.answer_source.append(source_of(block, self._lines))
        item.last_line = end_line_of(block)

    def _code_block(self, fence: Token) -> None:
        self._state = Outside()
        problems.unclosed_fence(fence, self._lines, self._sink)
        code = CodeBlock(fence.info.strip(), fence.content, line_of(fence) + 1)
        if code.kind == "formulas":
            self.result.formulas.append(code)
            return
        if self._section.last_item is None:
            self._sink.error(
                line_of(fence),
                "check block has no item before it in this section; "
                "put it right after the item whose claim it proves",
                code="AG128",
            )
            return
        self._section.last_item.checks.append(code)

    def _callout_block(self, block: list[Token], kind: str) -> None:
        self._state = Outside()
        inner = split_blocks(block[1:-1])
        marker = paragraph_of(inner[0])
        rest = callout.after_marker_line(marker)
        if callout.marker_has_separator(marker, rest):
            self._sink.error(
                marker.line,
                "':::' on a callout's marker line: start the item on the next line",
                code="AG127",
            )
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

    def _paragraph(self, paragraph: Paragraph) -> None:
        for piece, split in items_of(paragraph):
            self._paragraph_item(piece, split)

    def _paragraph_item(self, paragraph: Paragraph, split: Split | None) -> None:
        problems.stray_dollars(self._lines, paragraph.stray_dollar_lines, self._sink)
        in_answer = isinstance(self._state, InAnswer)
        if split is not None or in_answer or has_cloze(paragraph.children):
            problems.url_images(paragraph.children, paragraph.line, self._sink)  # prose: no card
        question = paragraph.children if split is None else split[0]
        if has_cloze(question):
            self._start(ItemKind.CLOZE, paragraph, split)
            return
        if split is not None:
            if has_cloze(split[1]):
                self._sink.error(
                    paragraph.line,
                    "cloze syntax after ':::' is not a cloze: "
                    "put the cloze before ':::' (the text after it is the Extra field)",
                    code="AG125",
                )
            self._start(ItemKind.REVEAL, paragraph, split)
            return
        if isinstance(self._state, InAnswer):
            item = self._state.item
            item.blocks.extend(paragraph_tokens(paragraph))
            item.answer_source.append(paragraph.source)
            item.last_line = paragraph.end_line
            self._take_trailing_metadata(paragraph)

    def _start(self, kind: ItemKind, paragraph: Paragraph, split: Split | None) -> None:
        front = paragraph.children if split is None else split[0]
        lead: tuple[Token, ...] = () if split is None else split[1]
        if kind is ItemKind.CLOZE:
            self._cloze_problems(paragraph, front, lead if split is not None else None)
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
        self._state = InAnswer(draft)
        self._take_trailing_metadata(paragraph)
        if split is None and kind is ItemKind.CLOZE:
            # Without ':::' a cloze item is its paragraph alone; only a
            # metadata comment on the next line may still attach to it.
            self._state = AwaitingMetadata(draft)

    def _cloze_problems(
        self, paragraph: Paragraph, front: Sequence[Token], extra: Sequence[Token] | None
    ) -> None:
        number_marks(front)
        for at in cloze_problems(front, paragraph.line, Locator(self._lines)):
            self._report(at)
        if extra is not None and has_cloze(extra):
            self._sink.error(
                paragraph.line,
                "cloze syntax in the Extra (after ':::') is not a cloze; move it before ':::'",
                code="AG126",
            )

    # -- metadata -------------------------------------------------------

    def _metadata_target(self) -> Draft | None:
        """The item a metadata comment here would belong to, if any."""
        if isinstance(self._state, InAnswer | AwaitingMetadata):
            return self._state.item
        return None

    def _take_trailing_metadata(self, paragraph: Paragraph) -> None:
        comment = trailing_comment(paragraph.children)
        target = self._metadata_target()
        if comment is not None and target is not None:
            self._apply_metadata(target, comment, paragraph.end_line)

    def _metadata_after(self, html_block: Token) -> bool:
        """A comment alone on the line right after an item sets its metadata."""
        target = self._metadata_target()
        if target is None or not is_comment(html_block.content):
            return False
        if line_of(html_block) != target.last_line + 1:
            return False
        self._apply_metadata(target, html_block.content, line_of(html_block))
        return True

    def _apply_metadata(self, draft: Draft, comment: str, line: int) -> None:
        metadata = parse_comment(comment, line, self._sink)
        if metadata is not None:
            draft.metadata = metadata

    # -- problems -------------------------------------------------------

    def _report(self, at: Located) -> None:
        """Report a finding of a syntax module at its place."""
        finding = at.finding
        severity = Severity.WARNING if finding.is_warning else Severity.ERROR
        self._sink.report(severity, at.line, finding.message, column=at.column, code=finding.code)

    def _near_misses(self, paragraph: Paragraph) -> None:
        """Warn about syntax that almost makes a card (format section 13)."""
        for at in near_misses(paragraph.children, paragraph.line, self._lines):
            self._report(at)
