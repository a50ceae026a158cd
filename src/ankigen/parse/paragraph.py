"""A paragraph's anatomy: its inline tokens by line, its separator, and the items it holds.

The walker decides what a paragraph *is* (an item, part of an answer,
prose); this module only takes paragraphs apart: where the ``:::`` falls,
which lines start items of their own, which source text belongs to each
side, and which comment ends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from markdown_it.token import Token

from ankigen.parse import token_meta
from ankigen.parse.metadata import is_comment
from ankigen.syntax import separator

#: Inline tokens that end a source line.
BREAKS = ("softbreak", "hardbreak")
_MATH_TYPES = ("math_inline", "math_inline_double")

#: A run of inline tokens, as a paragraph or one side of its separator holds them.
Inline = tuple[Token, ...]
#: A paragraph cut at its separator: the question's tokens and the answer's.
Split = tuple[Inline, Inline]


@dataclass(frozen=True)
class Paragraph:
    """A paragraph's inline tokens, its first and last line and its raw source."""

    children: Inline
    line: int
    end_line: int
    source: str
    stray_dollar_lines: tuple[int, ...] = ()


def split_blocks(tokens: Sequence[Token]) -> list[list[Token]]:
    """Group a token stream into top-level blocks (open ... matching close)."""
    blocks: list[list[Token]] = []
    depth = 0
    for token in tokens:
        if depth == 0:
            blocks.append([])
        blocks[-1].append(token)
        depth += token.nesting
    return blocks


def line_of(token: Token) -> int:
    """The 1-based first line of a block token (0 when markdown-it gave it no map)."""
    return token.map[0] + 1 if token.map else 0


def end_line_of(block: list[Token]) -> int:
    """The last line of a block."""
    ends = [t.map[1] for t in block if t.map]
    return max(ends) if ends else 0


def source_of(block: list[Token], lines: Sequence[str]) -> str:
    """The markdown source of a block, as written."""
    first = block[0]
    if not first.map:
        return ""
    return "\n".join(lines[first.map[0] : first.map[1]])


def paragraph_of(block: list[Token]) -> Paragraph:
    """The paragraph of a ``paragraph_open``/``inline``/``paragraph_close`` block."""
    inline = block[1]
    assert inline.map is not None  # markdown-it maps every block-level inline
    first = inline.map[0] + 1
    stray = tuple(first + offset for offset in token_meta.stray_dollar_lines(inline))
    return Paragraph(tuple(inline.children or ()), first, inline.map[1], inline.content, stray)


def display_math_paragraph(math_block: Token) -> Paragraph:
    """A standalone display formula as a paragraph of one formula (it may be a cloze item)."""
    assert math_block.map is not None
    formula = Token("math_inline_double", "math", 0, content=math_block.content, map=math_block.map)
    return Paragraph(
        (formula,), math_block.map[0] + 1, math_block.map[1], f"$${math_block.content}$$"
    )


def paragraph_tokens(paragraph: Paragraph) -> list[Token]:
    """Rebuild paragraph tokens for rendering a paragraph inside an answer."""
    inline = Token(
        "inline",
        "",
        0,
        children=list(paragraph.children),
        content=paragraph.source,
        map=[paragraph.line - 1, paragraph.end_line],
    )
    return [
        Token("paragraph_open", "p", 1, block=True),
        inline,
        Token("paragraph_close", "p", -1, block=True),
    ]


def note_lines(children: Sequence[Token], first_line: int) -> None:
    """Record each inline token's line, which markdown-it does not track."""
    line = first_line
    for child in children:
        token_meta.set_line(child, line)
        if child.type in BREAKS:
            line += 1
        else:
            line += child.content.count("\n") if child.type.startswith("math") else 0


def items_of(paragraph: Paragraph) -> list[tuple[Paragraph, Split | None]]:
    """The items of a paragraph: each line that holds its own ``:::`` starts one.

    ``Data ::: A`` and ``Model ::: B`` on consecutive lines are two items, as
    their author means, not one answer that shows a stray ``:::``; each piece
    keeps its own lines, source and trailing comment. A paragraph without a
    separator is one piece with no split.
    """
    pieces: list[tuple[Paragraph, Split | None]] = []
    rest: Paragraph | None = paragraph
    while rest is not None:
        note_lines(rest.children, rest.line)
        split = find_separator(rest.children)
        if split is None:
            pieces.append((rest, None))
            return pieces
        lead, next_item = _split_at_next_item(split[1], rest)
        piece = rest if next_item is None else _up_to(rest, next_item)
        pieces.append((piece, (split[0], lead)))
        rest = next_item
    return pieces


def find_separator(children: Sequence[Token]) -> Split | None:
    """Split top-level inline tokens at the first ``:::`` separator."""
    depth = 0
    for index, child in enumerate(children):
        depth += child.nesting
        if child.type != "text" or depth != 0:
            continue
        starts_line = index == 0 or children[index - 1].type in BREAKS
        for match in separator.matches(child.content, token_meta.escaped_colons(child)):
            if match.start() == 0 and not starts_line and index > 0:
                continue  # glued to the previous token, e.g. `*q*:::`
            before = child.content[: match.start()].rstrip()
            after = child.content[match.end() :].lstrip()
            head = (*children[:index], *([_text_like(child, before)] if before else []))
            tail = (*([_text_like(child, after)] if after else []), *children[index + 1 :])
            return strip_trailing_breaks(head), _strip_leading_breaks(tail)
    return None


def _split_at_next_item(lead: Inline, paragraph: Paragraph) -> tuple[Inline, Paragraph | None]:
    """Cut an answer where a later line of the same paragraph holds a separator."""
    for index, child in enumerate(lead):
        if child.type not in BREAKS:
            continue
        line_end = next(
            (j for j in range(index + 1, len(lead)) if lead[j].type in BREAKS), len(lead)
        )
        if find_separator(lead[index + 1 : line_end]) is None:
            continue
        rest = lead[index + 1 :]
        first = token_meta.line_or(rest[0], paragraph.line) if rest else paragraph.end_line
        source = "\n".join(paragraph.source.split("\n")[first - paragraph.line :])
        stray = tuple(n for n in paragraph.stray_dollar_lines if n >= first)
        return lead[:index], Paragraph(rest, first, paragraph.end_line, source, stray)
    return lead, None


def _up_to(paragraph: Paragraph, next_item: Paragraph) -> Paragraph:
    """The lines of ``paragraph`` before ``next_item``: its tokens, source and comment alone.

    Each line of ``Outlier ::: ... <!-- id: a -->`` / ``Mode ::: ... <!-- id: b -->``
    keeps its own metadata comment, so the first item's is not the second's.
    """
    first = next_item.children[0]
    cut = next(i for i, child in enumerate(paragraph.children) if child is first)
    kept = paragraph.source.split("\n")[: next_item.line - paragraph.line]
    return replace(
        paragraph,
        children=strip_trailing_breaks(paragraph.children[:cut]),
        source="\n".join(kept),
        end_line=next_item.line - 1,
        stray_dollar_lines=tuple(n for n in paragraph.stray_dollar_lines if n < next_item.line),
    )


def split_source(source: str, front: Sequence[Token], has_separator: bool) -> tuple[str, str]:
    """Cut a paragraph's markdown at its separator: question source, answer source."""
    if not has_separator:
        return source, ""
    # Separator-like text inside code or math of the question is not the
    # separator; skip as many matches as those tokens hold.
    skip = sum(separator.count(c.content) for c in front if c.type in ("code_inline", *_MATH_TYPES))
    matches = separator.in_source(source)
    if len(matches) <= skip:
        return source, ""
    cut = matches[skip]
    return source[: cut[0]], source[cut[1] :]


def lead_line(paragraph: Paragraph, lead: Sequence[Token]) -> int:
    """The line the answer's first token is on (the paragraph's when there is none)."""
    return token_meta.line_or(lead[0], paragraph.line) if lead else paragraph.line


def trailing_comment(children: Sequence[Token]) -> str | None:
    """The HTML comment that ends a paragraph, if any."""
    for child in reversed(children):
        if child.type == "text" and not child.content.strip():
            continue
        if child.type == "html_inline" and is_comment(child.content):
            return child.content
        return None
    return None


def plain_text(children: Sequence[Token]) -> str:
    """The text of inline tokens without markup (a heading's name)."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline", *_MATH_TYPES):
            parts.append(child.content)
        elif child.type in BREAKS:
            parts.append(" ")
        elif child.children:
            parts.append(plain_text(child.children))
    return "".join(parts).strip()


def strip_trailing_breaks(children: Sequence[Token]) -> Inline:
    """``children`` without the line breaks at its end."""
    end = len(children)
    while end and children[end - 1].type in BREAKS:
        end -= 1
    return tuple(children[:end])


def _strip_leading_breaks(children: Sequence[Token]) -> Inline:
    start = 0
    while start < len(children) and children[start].type in BREAKS:
        start += 1
    return tuple(children[start:])


def _text_like(token: Token, content: str) -> Token:
    """A text token with part of ``token``'s content (cheaper than ``Token.copy``)."""
    return Token("text", "", 0, content=content, meta=token_meta.notes_for_part(token))
