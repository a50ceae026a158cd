"""One section's tokens in, its frozen items and diagnostics out (``SectionResult``).

The walker's drafts still hold markdown-it tokens; freezing renders them into
``model.Item`` values, reads their claims and fixes their GUIDs, after which
the section's tokens can go. What depends on the whole file (the subdeck
name, the context line, duplicate GUIDs) is left to ``ankigen.parse``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import genanki
from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.model import Fragment, Item, ItemKind
from ankigen.parse import token_meta
from ankigen.parse.claims import item_claims
from ankigen.parse.context import is_question
from ankigen.parse.fragment import render_blocks, render_inline
from ankigen.parse.frontmatter import FrontMatter
from ankigen.parse.headings import deck_name_problems
from ankigen.parse.inline_html import report_html
from ankigen.parse.macro_expansion import expand_macros
from ankigen.parse.math_columns import with_columns
from ankigen.parse.paragraph import BREAKS
from ankigen.parse.section_cache import SectionResult
from ankigen.parse.walker import Draft, Walker
from ankigen.syntax import anki_markup, separator
from ankigen.syntax.tex_macros import NO_MACROS, Macros

__all__ = ["freeze_section", "normalise_source", "note_guid"]


def freeze_section(
    tokens: Sequence[Token],
    lines: Sequence[str],
    front: FrontMatter,
    key: str,
    display_path: str,
    macros: Macros = NO_MACROS,
) -> SectionResult:
    """Walk one section's tokens (``lines`` indexed as the file's) and freeze its items.

    Authors' ``macros`` are expanded in every formula first (format §17). The
    section's diagnostics come in the order a whole-file parse finds them:
    macros, the walker's, MathJax delimiters, refused links, then freezing.
    """
    sink = Sink(display_path)
    expand_macros(tokens, macros, lines, sink)
    walked = Walker(lines, sink).walk(tokens)
    deck_name_problems(tokens, front.deck, front.subdecks, sink)
    _mathjax_delimiters(tokens, sink)
    _refused_links(tokens, lines, sink)
    # Items of a section mostly carry the same tags: one tuple each, not one per item.
    tags: dict[tuple[str, ...], tuple[str, ...]] = {}
    items = tuple(_freeze(draft, front, key, sink, lines, tags) for draft in walked.drafts)
    return SectionResult(
        walked.title,
        items,
        tuple(
            (draft.section, draft.callout_title, is_question(draft.question_source))
            for draft in walked.drafts
        ),
        tuple(walked.formulas),
        tuple(sink.diagnostics),
        tuple(walked.prose.blocks),
        (walked.prose.heading_then_text, walked.prose.empty_at_end),
    )


def _mathjax_delimiters(tokens: Sequence[Token], sink: Sink) -> None:
    """Format §13: ``\\(`` or ``\\[`` in text is Anki's MathJax, not this format's math."""
    for block in tokens:
        first_line = block.map[0] if block.map else 0
        for line_offset, column, spelling in token_meta.mathjax_places(block):
            meant = "$…$" if spelling.endswith("(") else "$$…$$"
            sink.warning(
                first_line + 1 + line_offset,
                Code.MATHJAX_DELIMITER.message(spelling=spelling, meant=meant),
                column=column,
                code=Code.MATHJAX_DELIMITER,
            )


def _refused_links(tokens: Sequence[Token], lines: Sequence[str], sink: Sink) -> None:
    """Links whose scheme the fragment renderer drops (``anki_markup.is_safe_link``)."""
    for block in tokens:
        line = (block.map[0] if block.map else 0) + 1
        for child in block.children or ():
            if child.type in BREAKS:
                line += 1
            href = str(child.attrGet("href") or "") if child.type == "link_open" else ""
            if not href or anki_markup.is_safe_link(href):
                continue
            source = lines[line - 1] if 0 < line <= len(lines) else ""
            sink.warning(
                line,
                Code.LINK_SCHEME.message(href=href),
                column=source.find(href) + 1,
                code=Code.LINK_SCHEME,
            )


def _freeze(
    draft: Draft,
    front: FrontMatter,
    key: str,
    sink: Sink,
    lines: Sequence[str],
    shared_tags: dict[tuple[str, ...], tuple[str, ...]],
) -> Item:
    """Render a draft's tokens and fix its identity (its subdeck is the file's to name).

    ``shared_tags`` holds the tag tuples met so far in the section, to reuse.
    """
    question, answer = with_columns(
        lines,
        render_inline(draft.front, draft.line),
        render_blocks(draft.lead, draft.lead_line, draft.blocks),
    )
    runs = ((draft.front, draft.line), (draft.lead, draft.lead_line))
    report_html(runs, draft.blocks, lines, sink)
    is_cloze = draft.kind is ItemKind.CLOZE
    # A cloze item's text is never empty: its cloze marker shows.
    at = _separator_column(lines, draft.line)
    if not is_cloze and shows_nothing(question):
        message = Code.EMPTY_QUESTION.message(why=_why_empty(lines, draft.line))
        sink.error(draft.line, message, column=at, code=Code.EMPTY_QUESTION)
    if not is_cloze and shows_nothing(answer):
        message = Code.EMPTY_ANSWER.message()
        sink.error(draft.line, message, column=at, code=Code.EMPTY_ANSWER)
    tags = tuple(_unique([*front.tags, *draft.tags, *draft.metadata.tags]))
    tags = shared_tags.setdefault(tags, tags)
    return Item(
        kind=draft.kind,
        line=draft.line,
        front=question,
        back=answer,
        guid=draft.metadata.guid
        or note_guid(key, draft.metadata.note_id, draft.question_source, draft.kind),
        note_id=draft.metadata.note_id,
        tags=tags,
        subdeck=None,
        checks=tuple(draft.checks),
        claims=item_claims(
            draft.kind,
            (draft.front, draft.line),
            (draft.lead, draft.lead_line),
            draft.blocks,
            lines,
        ),
    )


def note_guid(
    deck_key: str, note_id: str | None, question_source: str, kind: ItemKind = ItemKind.REVEAL
) -> str:
    """A note's stable GUID: deck key + id (+ kind), else deck key + normalised question.

    The question's markdown has comments removed and white space collapsed,
    so neither the math mode nor re-wrapping a line changes the GUID. Every
    part is Unicode-NFC normalised: saving "café" with a decomposed "é" (as
    some editors and file systems do) is the same note, not a new one.

    A cloze item with an id mixes its kind in, so that a reveal item turned
    into a cloze under the same id is a new note, which Anki adds, rather
    than the old GUID under another note type, which Anki skips (or, with
    "merge note types", refuses the deck for). Reveal GUIDs are those of
    every earlier version; without an id the question already differs (a
    cloze's text holds its markers). See docs/format.md 8.2.
    """
    key = unicodedata.normalize("NFC", deck_key)
    if note_id:
        nid = unicodedata.normalize("NFC", note_id)
        if kind is ItemKind.CLOZE:
            return str(genanki.guid_for(key, "id", nid, "cloze"))
        return str(genanki.guid_for(key, "id", nid))
    return str(genanki.guid_for(key, "text", normalise_source(question_source)))


def normalise_source(source: str) -> str:
    """Drop HTML comments, collapse white space and normalise to Unicode NFC."""
    without_comments = re.sub(r"<!--.*?-->", " ", source, flags=re.DOTALL)
    return unicodedata.normalize("NFC", " ".join(without_comments.split()))


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def shows_nothing(fragment: Fragment) -> bool:
    """Whether a question or answer shows nothing at all: no text, formula or image."""
    return fragment.is_empty and not fragment.maths and not fragment.images


#: Why a question is empty when the line above its ':::' is not blank: a block ended there.
_BLOCK_ABOVE = (
    ": the code block, list, table, quote or heading that ends on the line above is no part "
    "of a question, which is one paragraph of text; write the question's text right before "
    "':::' and put the block in the answer"
)


def _why_empty(lines: Sequence[str], line: int) -> str:
    """What to say of an empty question: why, when a block stands right above its ':::'."""
    above = lines[line - 2] if 1 < line <= len(lines) + 1 else ""
    return _BLOCK_ABOVE if above.strip() else ": write the question before ':::'"


def _separator_column(lines: Sequence[str], line: int) -> int:
    """The 1-based column of the first ``:::`` on ``line`` (0 when it is on a later line)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    cut = next(separator.matches(text), None)
    return cut.start() + 1 if cut is not None else 0
