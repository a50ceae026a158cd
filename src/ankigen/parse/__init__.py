"""Parse stage: one content file in, one ``Deck`` (and its diagnostics) out."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import genanki
from markdown_it.token import Token

from ankigen import anki_markup
from ankigen.diagnostics import Diagnostic, Sink, error
from ankigen.model import Deck, Item, ItemKind, MathMode
from ankigen.parse import token_meta
from ankigen.parse.claims import item_claims
from ankigen.parse.context import item_contexts
from ankigen.parse.fragment import render_blocks, render_inline
from ankigen.parse.frontmatter import FrontMatter, read_front_matter
from ankigen.parse.markdown import content_parser
from ankigen.parse.paragraph import BREAKS
from ankigen.parse.walker import Draft, Walker

__all__ = ["ParseResult", "parse_file", "parse_text"]


@dataclass(frozen=True)
class ParseResult:
    """A parsed deck (None when the file could not be read) and its diagnostics."""

    deck: Deck | None
    diagnostics: tuple[Diagnostic, ...]


def parse_file(
    path: Path,
    root: Path,
    display_path: str | None = None,
    default_math: MathMode = MathMode.IMAGE,
) -> ParseResult:
    """Read and parse one content file; ``root`` is the content root for images.

    ``default_math`` is the math mode of a file whose front matter names none.
    """
    shown = display_path or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return ParseResult(
            None, (error(shown, 1, f"cannot read file: {exc.strerror}", code="AG101"),)
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        message = f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        return ParseResult(None, (error(shown, line, message, code="AG102"),))
    return parse_text(text, path, root, shown, default_math)


def parse_text(
    text: str,
    path: Path,
    root: Path,
    display_path: str,
    default_math: MathMode = MathMode.IMAGE,
) -> ParseResult:
    """Parse content already read as text (``path`` names the deck and resolves images)."""
    sink = Sink(display_path)
    tokens = content_parser().parse(text)
    front = _front_matter(tokens, sink)
    lines = text.splitlines()
    walked = Walker(lines, sink).walk(tokens)
    _mathjax_delimiters(tokens, sink)
    _refused_links(tokens, lines, sink)

    name = front.deck or walked.title or path.stem
    # NFC: a file re-saved by an editor that writes decomposed accents keeps its deck ids.
    key = unicodedata.normalize("NFC", front.key or path.stem)
    contexts = item_contexts(walked.drafts, front, sink)
    items = [
        replace(_freeze(draft, front, name, key, sink, lines), context=context)
        for draft, context in zip(walked.drafts, contexts, strict=True)
    ]
    _duplicate_guids(items, sink)
    if not items:
        sink.warning(
            1,
            "no items: the deck will be empty; write "
            "'question ::: answer' or a cloze such as '{{c1::word}}' to make cards",
            code="AG103",
        )
    deck = Deck(
        path=path,
        display_path=display_path,
        root=root,
        name=name,
        key=key,
        math=front.math or default_math,
        items=tuple(items),
        formulas=tuple(walked.formulas),
        tags=front.tags,
        key_line=1 + front.key_line if front.key_line else 0,
    )
    found = sorted(sink.diagnostics, key=lambda d: (d.line, d.column))
    return ParseResult(deck, tuple(found))


def _mathjax_delimiters(tokens: Sequence[Token], sink: Sink) -> None:
    """Format §13: ``\\(`` or ``\\[`` in text is Anki's MathJax, not this format's math."""
    for block in tokens:
        first_line = block.map[0] if block.map else 0
        for line_offset, column, spelling in token_meta.mathjax_places(block):
            meant = "$…$" if spelling.endswith("(") else "$$…$$"
            sink.warning(
                first_line + 1 + line_offset,
                f"'{spelling}' is Anki's MathJax delimiter, not math in this format "
                f"(it is shown as written): write {meant} for a formula",
                column=column,
                code="AG600",
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
                f"link '{href}' shows as text with no target: only https:, http:, "
                "mailto: and relative links keep theirs on a card",
                column=source.find(href) + 1,
                code="AG603",
            )


def _front_matter(tokens: Sequence[Token], sink: Sink) -> FrontMatter:
    if not tokens or tokens[0].type != "front_matter":
        return FrontMatter()
    # The YAML's first line is the file's second line, after `---`.
    return read_front_matter(tokens[0].content, sink.below(2))


def _freeze(
    draft: Draft,
    front: FrontMatter,
    deck_name: str,
    key: str,
    sink: Sink,
    lines: Sequence[str],
) -> Item:
    """Render a draft's tokens and fix its identity."""
    question = render_inline(draft.front, draft.line)
    answer = render_blocks(draft.lead, draft.lead_line, draft.blocks)
    is_cloze = draft.kind is ItemKind.CLOZE
    # A cloze item's text is never empty: its cloze marker shows.
    if not is_cloze and question.is_empty and not question.maths and not question.images:
        sink.error(draft.line, "empty question before ':::'", code="AG105")
    if not is_cloze and answer.is_empty and not answer.maths and not answer.images:
        sink.error(draft.line, "empty answer: write the answer after ':::'", code="AG106")
    tags = _unique([*front.tags, *draft.tags, *draft.metadata.tags])
    subdeck = draft.section if front.subdecks and draft.section else None
    return Item(
        kind=draft.kind,
        line=draft.line,
        front=question,
        back=answer,
        guid=note_guid(key, draft.metadata.note_id, draft.question_source),
        note_id=draft.metadata.note_id,
        tags=tuple(tags),
        subdeck=f"{deck_name}::{subdeck}" if subdeck else None,
        question_source=draft.question_source,
        answer_source="\n\n".join(s for s in draft.answer_source if s),
        checks=tuple(draft.checks),
        claims=item_claims(
            draft.kind,
            (draft.front, draft.line),
            (draft.lead, draft.lead_line),
            draft.blocks,
            lines,
        ),
    )


def note_guid(deck_key: str, note_id: str | None, question_source: str) -> str:
    """A note's stable GUID: deck key + id, else deck key + normalised question.

    The question's markdown has comments removed and white space collapsed,
    so neither the math mode nor re-wrapping a line changes the GUID. Every
    part is Unicode-NFC normalised: saving "café" with a decomposed "é" (as
    some editors and file systems do) is the same note, not a new one.
    """
    key = unicodedata.normalize("NFC", deck_key)
    if note_id:
        return str(genanki.guid_for(key, "id", unicodedata.normalize("NFC", note_id)))
    return str(genanki.guid_for(key, "text", normalise_source(question_source)))


def normalise_source(source: str) -> str:
    """Drop HTML comments, collapse white space and normalise to Unicode NFC."""
    without_comments = re.sub(r"<!--.*?-->", " ", source, flags=re.DOTALL)
    return unicodedata.normalize("NFC", " ".join(without_comments.split()))


def _duplicate_guids(items: list[Item], sink: Sink) -> None:
    first_line: dict[str, int] = {}
    for item in items:
        earlier = first_line.setdefault(item.guid, item.line)
        if earlier == item.line:
            continue
        how = f"id '{item.note_id}'" if item.note_id else "question"
        for line, other in ((earlier, item.line), (item.line, earlier)):
            sink.error(
                line,
                f"duplicate note: same {how} as the item at line {other}; "
                "give one of them a different id",
                code="AG107",
            )


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))
