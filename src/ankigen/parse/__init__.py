"""Parse stage: one content file in, one ``Deck`` (and its diagnostics) out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import genanki
from markdown_it.token import Token

from ankigen.diagnostics import Diagnostic, error, warning
from ankigen.model import Deck, Item, ItemKind, MathMode
from ankigen.parse.context import item_contexts
from ankigen.parse.fragment import render_blocks, render_inline
from ankigen.parse.frontmatter import FrontMatter, read_front_matter
from ankigen.parse.markdown import content_parser
from ankigen.parse.walker import Draft, Walker

__all__ = ["ParseResult", "parse_file", "parse_text"]


@dataclass(frozen=True)
class ParseResult:
    """A parsed deck (None when the file could not be read) and its diagnostics."""

    deck: Deck | None
    diagnostics: tuple[Diagnostic, ...]


def parse_file(path: Path, root: Path, display_path: str | None = None) -> ParseResult:
    """Read and parse one content file; ``root`` is the content root for images."""
    shown = display_path or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return ParseResult(None, (error(shown, 1, f"cannot read file: {exc.strerror}"),))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        message = f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        return ParseResult(None, (error(shown, line, message),))
    return parse_text(text, path, root, shown)


def parse_text(text: str, path: Path, root: Path, display_path: str) -> ParseResult:
    """Parse content already read as text (``path`` names the deck and resolves images)."""
    diagnostics: list[Diagnostic] = []
    tokens = content_parser().parse(text)
    front = _front_matter(tokens, display_path, diagnostics)
    walked = Walker(text.splitlines()).walk(tokens)
    diagnostics.extend(error(display_path, line, message) for line, message in walked.problems)

    name = front.deck or walked.title or path.stem
    key = front.key or path.stem
    contexts, context_problems = item_contexts(walked.drafts, front, display_path)
    diagnostics.extend(context_problems)
    items = [
        replace(_freeze(draft, front, name, key, display_path, diagnostics), context=context)
        for draft, context in zip(walked.drafts, contexts, strict=True)
    ]
    diagnostics.extend(_duplicate_guids(items, display_path))
    if not items:
        diagnostics.append(
            warning(
                display_path,
                1,
                "no items: the deck will be empty; write "
                "'question ::: answer' or a cloze such as '{{c1::word}}' to make cards",
            )
        )
    deck = Deck(
        path=path,
        display_path=display_path,
        root=root,
        name=name,
        key=key,
        math=front.math or MathMode.IMAGE,
        items=tuple(items),
        formulas=tuple(walked.formulas),
        tags=front.tags,
    )
    return ParseResult(deck, tuple(sorted(diagnostics, key=lambda d: d.line)))


def _front_matter(
    tokens: Sequence[Token], display_path: str, diagnostics: list[Diagnostic]
) -> FrontMatter:
    if not tokens or tokens[0].type != "front_matter":
        return FrontMatter()
    front, problems = read_front_matter(tokens[0].content)
    # The YAML's first line is the file's second line, after `---`.
    diagnostics.extend(
        error(display_path, 1 + p.line_offset, p.message, column=1 if p.code else 0, code=p.code)
        for p in problems
    )
    return front


def _freeze(
    draft: Draft,
    front: FrontMatter,
    deck_name: str,
    key: str,
    display_path: str,
    diagnostics: list[Diagnostic],
) -> Item:
    """Render a draft's tokens and fix its identity."""
    question = render_inline(draft.front, draft.line)
    answer = render_blocks(draft.lead, draft.lead_line, draft.blocks)
    is_cloze = draft.kind is ItemKind.CLOZE
    if question.is_empty and not question.maths and not question.images:
        what = "cloze text" if is_cloze else "question"
        diagnostics.append(error(display_path, draft.line, f"empty {what} before ':::'"))
    if not is_cloze and answer.is_empty and not answer.maths and not answer.images:
        diagnostics.append(
            error(display_path, draft.line, "empty answer: write the answer after ':::'")
        )
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
    )


def note_guid(deck_key: str, note_id: str | None, question_source: str) -> str:
    """A note's stable GUID: deck key + id, else deck key + normalised question.

    The question's markdown has comments removed and white space collapsed,
    so neither the math mode nor re-wrapping a line changes the GUID.
    """
    if note_id:
        return str(genanki.guid_for(deck_key, "id", note_id))
    return str(genanki.guid_for(deck_key, "text", normalise_source(question_source)))


def normalise_source(source: str) -> str:
    """Drop HTML comments and collapse white space."""
    without_comments = re.sub(r"<!--.*?-->", " ", source, flags=re.DOTALL)
    return " ".join(without_comments.split())


def _duplicate_guids(items: list[Item], display_path: str) -> list[Diagnostic]:
    first_line: dict[str, int] = {}
    problems: list[Diagnostic] = []
    for item in items:
        earlier = first_line.setdefault(item.guid, item.line)
        if earlier == item.line:
            continue
        how = f"id '{item.note_id}'" if item.note_id else "question"
        problems.append(
            error(
                display_path,
                earlier,
                f"duplicate note: same {how} as the item at line {item.line}; "
                "give one of them a different id",
            )
        )
        problems.append(
            error(
                display_path,
                item.line,
                f"duplicate note: same {how} as the item at line {earlier}; "
                "give one of them a different id",
            )
        )
    return problems


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))
