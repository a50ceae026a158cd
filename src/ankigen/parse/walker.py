"""Walk the block token stream and cut it into items, sections and callouts.

The walker is a small state machine over top-level blocks: a paragraph with
a ``:::`` separator or cloze syntax opens an item; following blocks extend
the open answer until a heading, thematic break, ``check``/``formulas``
fence or the next item closes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from markdown_it.token import Token

from ankigen.model import CodeBlock, ItemKind
from ankigen.parse.cloze import cloze_problems, has_cloze, number_marks
from ankigen.parse.metadata import Metadata, is_comment, parse_comment
from ankigen.parse.slug import slugify

#: The separator inside a text token: ``:::`` after white space or the start
#: of the token, and before white space or the end of the token.
_SEPARATOR = re.compile(r"(?:(?<=\s)|^):::(?=\s|$)")
_SOURCE_SEPARATOR = re.compile(r"(?:(?<=\s)|^):::(?=\s|$)", re.MULTILINE)
_CALLOUT = re.compile(r"^\[!(recall|formula|note)\][ \t]*(.*)$", re.IGNORECASE)
_CHECK_FENCES = ("check", "formulas")
#: An image whose target markdown-it refused (a URL scheme it does not link).
_URL_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*<?([A-Za-z][A-Za-z0-9+.-]*:[^\s>]*)")
_CLOZE_IN_ANSWER = (
    "cloze syntax inside a list, table or quote of an answer is not a cloze; "
    "write the cloze item as a paragraph of its own"
)


@dataclass(frozen=True)
class Paragraph:
    """A paragraph's inline tokens, its first line and its raw source."""

    children: list[Token]
    line: int
    end_line: int
    source: str
    stray_dollar_lines: tuple[int, ...] = ()


@dataclass
class Draft:
    """An item being collected; frozen into ``model.Item`` once complete."""

    kind: ItemKind
    line: int
    front: list[Token]
    lead: list[Token]
    lead_line: int
    question_source: str
    answer_source: list[str]
    section: str | None
    tags: list[str]
    blocks: list[Token] = field(default_factory=list)
    metadata: Metadata = field(default_factory=Metadata)
    checks: list[CodeBlock] = field(default_factory=list)
    last_line: int = 0
    callout_title: str | None = None


@dataclass
class WalkResult:
    """Everything the walker found in one file."""

    title: str | None = None
    drafts: list[Draft] = field(default_factory=list)
    formulas: list[CodeBlock] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)


class Walker:
    """Turns the token stream of one file into drafts and problems."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self.result = WalkResult()
        self._open: Draft | None = None  # the item whose answer is still growing
        self._section: str | None = None
        self._section_tag: str | None = None
        self._last_in_section: Draft | None = None
        self._callout: str | None = None
        self._callout_title: str | None = None
        # A cloze item without ':::' is closed at once, but a metadata comment
        # on the next line still belongs to it.
        self._awaiting_metadata: Draft | None = None

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
            self._close()
        elif kind == "paragraph_open":
            self._paragraph(_paragraph_of(block, self._lines))
        elif kind == "fence" and first.info.strip() in _CHECK_FENCES:
            self._code_block(first)
        elif kind == "blockquote_open" and self._callout is None and _callout_kind(block):
            self._callout_block(block, _callout_kind(block) or "")
        elif kind == "html_block" and self._metadata_after(first):
            return
        elif kind == "math_block" and has_cloze([first]):
            self._paragraph(_display_math_paragraph(first))
        else:
            self._extend(block)

    def _heading(self, open_token: Token, inline: Token) -> None:
        self._close()
        text = _plain_text(inline.children or [])
        if open_token.tag == "h1":
            # A later `#` heading ends the current section; only the first names the deck.
            self.result.title = self.result.title if self.result.title is not None else text
            self._section = self._section_tag = None
            self._last_in_section = None
        elif open_token.tag == "h2":
            self._section = text
            self._section_tag = slugify(text) or None
            self._last_in_section = None

    def _extend(self, block: list[Token]) -> None:
        """A block that is not an item: part of the open answer, else prose."""
        if block[0].type == "fence":
            self._check_fence_closed(block[0])
        if self._open is None:
            return
        for token in block:
            if token.type == "inline" and token.map and token.children:
                first = token.map[0] + 1
                _note_lines(token.children, first)
                if has_cloze(token.children):
                    self._problem(first, _CLOZE_IN_ANSWER)
                self._url_images(token.children, first)
                self._stray_dollars([first + n for n in token.meta.get("stray_dollar_lines", ())])
        self._open.blocks.extend(block)
        self._open.answer_source.append(_source(block, self._lines))
        self._open.last_line = _end_line(block)

    def _code_block(self, fence: Token) -> None:
        self._close()
        self._check_fence_closed(fence)
        code = CodeBlock(fence.info.strip(), fence.content, _line(fence) + 1)
        if code.kind == "formulas":
            self.result.formulas.append(code)
            return
        if self._last_in_section is None:
            self._problem(
                _line(fence),
                "check block has no item before it in this section; "
                "put it right after the item whose claim it proves",
            )
            return
        self._last_in_section.checks.append(code)

    def _callout_block(self, block: list[Token], kind: str) -> None:
        self._close()
        inner = split_blocks(block[1:-1])
        marker = _paragraph_of(inner[0], self._lines)
        rest = _after_marker_line(marker)
        if any(
            c.type == "text" and _SEPARATOR.search(c.content)
            for c in marker.children[: len(marker.children) - len(rest.children)]
        ):
            self._problem(
                marker.line, "':::' on a callout's marker line: start the item on the next line"
            )
        self._callout = kind
        self._callout_title = _callout_title(marker.source)
        if rest.children:
            self._paragraph(rest)
        for sub in inner[1:]:
            self._block(sub)
        self._close()
        self._callout = self._callout_title = None

    # -- paragraphs and items ---------------------------------------------

    def _paragraph(self, paragraph: Paragraph) -> None:
        _note_lines(paragraph.children, paragraph.line)
        self._stray_dollars(paragraph.stray_dollar_lines)
        split = _find_separator(paragraph.children)
        next_item = None
        if split is not None:
            lead, next_item = _split_at_next_item(split[1], paragraph)
            split = (split[0], lead)
            if next_item is not None:
                kept = paragraph.source.split("\n")[: next_item.line - paragraph.line]
                paragraph = replace(paragraph, source="\n".join(kept), end_line=next_item.line - 1)
        self._paragraph_item(paragraph, split)
        if next_item is not None:
            self._paragraph(next_item)

    def _paragraph_item(
        self, paragraph: Paragraph, split: tuple[list[Token], list[Token]] | None
    ) -> None:
        if split is not None or self._open is not None or has_cloze(paragraph.children):
            self._url_images(paragraph.children, paragraph.line)  # prose makes no card
        question = paragraph.children if split is None else split[0]
        if has_cloze(question):
            self._start(ItemKind.CLOZE, paragraph, split)
            return
        if split is not None:
            if has_cloze(split[1]):
                self._problem(
                    paragraph.line,
                    "cloze syntax after ':::' is not a cloze: "
                    "put the cloze before ':::' (the text after it is the Extra field)",
                )
            self._start(ItemKind.REVEAL, paragraph, split)
            return
        if self._open is not None:
            self._open.blocks.extend(_paragraph_tokens(paragraph))
            self._open.answer_source.append(paragraph.source)
            self._open.last_line = paragraph.end_line
            self._take_trailing_metadata(paragraph)

    def _start(
        self, kind: ItemKind, paragraph: Paragraph, split: tuple[list[Token], list[Token]] | None
    ) -> None:
        self._close()
        front = paragraph.children if split is None else split[0]
        lead = [] if split is None else split[1]
        if kind is ItemKind.CLOZE:
            number_marks(front)
            for offset, message in cloze_problems(front):
                self._problem(paragraph.line + offset, message)
            if split is not None and has_cloze(lead):
                self._problem(
                    paragraph.line,
                    "cloze syntax in the Extra (after ':::') is not a cloze; move it before ':::'",
                )
        question_source, answer_source = _split_source(paragraph.source, front, split is not None)
        draft = Draft(
            kind=kind,
            line=paragraph.line,
            front=_strip_trailing_space(front),
            lead=lead,
            lead_line=_lead_line(paragraph, lead),
            question_source=question_source,
            answer_source=[answer_source],
            section=self._section,
            tags=[t for t in (self._section_tag, self._callout) if t],
            last_line=paragraph.end_line,
            callout_title=self._callout_title,
        )
        self.result.drafts.append(draft)
        self._last_in_section = draft
        self._open = draft
        self._take_trailing_metadata(paragraph)
        if split is None and kind is ItemKind.CLOZE:
            # Without ':::' a cloze item is its paragraph alone; only a
            # metadata comment on the next line may still attach to it.
            self._open = None
            self._awaiting_metadata = draft

    def _close(self) -> None:
        self._open = None
        self._awaiting_metadata = None

    # -- metadata -------------------------------------------------------

    def _take_trailing_metadata(self, paragraph: Paragraph) -> None:
        comment = _trailing_comment(paragraph.children)
        target = self._open or self._awaiting_metadata
        if comment is not None and target is not None:
            self._apply_metadata(target, comment, paragraph.end_line)

    def _metadata_after(self, html_block: Token) -> bool:
        """A comment alone on the line right after an item sets its metadata."""
        target = self._open or self._awaiting_metadata
        if target is None or not is_comment(html_block.content):
            return False
        if _line(html_block) != target.last_line + 1:
            return False
        self._apply_metadata(target, html_block.content, _line(html_block))
        return True

    def _apply_metadata(self, draft: Draft, comment: str, line: int) -> None:
        parsed = parse_comment(comment)
        if parsed.error:
            self._problem(line, parsed.error)
        if parsed.metadata is not None:
            draft.metadata = parsed.metadata

    # -- problems -------------------------------------------------------

    def _problem(self, line: int, message: str) -> None:
        self.result.problems.append((line, message))

    def _url_images(self, children: Sequence[Token], line: int) -> None:
        # markdown-it makes no image of a javascript:, vbscript:, file: or data:
        # (non-image) target and leaves the text as written: say so instead.
        for child in children:
            if child.type != "text":
                continue
            for match in _URL_IMAGE.finditer(child.content):
                self._problem(
                    child.meta.get("line", line),
                    f"image '{_link_target(match.group(1))}' is a URL; put the file next to "
                    "the content and use a relative path",
                )

    def _stray_dollars(self, lines: Sequence[int]) -> None:
        for line in sorted(set(lines)):
            text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
            if "$$" in text.replace("\\$", ""):
                self._problem(
                    line,
                    "unclosed '$$': close the display formula with '$$', "
                    "or write '\\$' for a dollar sign",
                )
            else:
                self._problem(
                    line,
                    "unclosed '$': close the formula with '$', or write '\\$' for a dollar sign",
                )

    def _check_fence_closed(self, fence: Token) -> None:
        if fence.map is None:
            return
        last = self._lines[fence.map[1] - 1].strip().lstrip(">").strip()
        marker = fence.markup[0]
        closed = (
            fence.map[1] - fence.map[0] >= 2
            and last.startswith(fence.markup)
            and set(last) <= {marker}
        )
        if not closed:
            self._problem(_line(fence), f"code block opened with '{fence.markup}' is never closed")


# -- token helpers -------------------------------------------------------


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


def _line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 0


def _end_line(block: list[Token]) -> int:
    ends = [t.map[1] for t in block if t.map]
    return max(ends) if ends else 0


def _source(block: list[Token], lines: Sequence[str]) -> str:
    first = block[0]
    if not first.map:
        return ""
    return "\n".join(lines[first.map[0] : first.map[1]])


def _paragraph_of(block: list[Token], lines: Sequence[str]) -> Paragraph:
    inline = block[1]
    assert inline.map is not None  # markdown-it maps every block-level inline
    first = inline.map[0] + 1
    stray = tuple(first + offset for offset in inline.meta.get("stray_dollar_lines", ()))
    return Paragraph(list(inline.children or []), first, inline.map[1], inline.content, stray)


def _display_math_paragraph(math_block: Token) -> Paragraph:
    """A display formula holding a cloze is a cloze item, like a paragraph."""
    assert math_block.map is not None
    formula = Token("math_inline_double", "math", 0, content=math_block.content, map=math_block.map)
    return Paragraph(
        [formula], math_block.map[0] + 1, math_block.map[1], f"$${math_block.content}$$"
    )


def _paragraph_tokens(paragraph: Paragraph) -> list[Token]:
    """Rebuild paragraph tokens for rendering a paragraph inside an answer."""
    inline = Token(
        "inline",
        "",
        0,
        children=paragraph.children,
        content=paragraph.source,
        map=[paragraph.line - 1, paragraph.end_line],
    )
    return [
        Token("paragraph_open", "p", 1, block=True),
        inline,
        Token("paragraph_close", "p", -1, block=True),
    ]


def _note_lines(children: list[Token], first_line: int) -> None:
    """Record each inline token's line, which markdown-it does not track."""
    line = first_line
    for child in children:
        child.meta["line"] = line
        child.meta["line_offset"] = line - first_line
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        else:
            line += child.content.count("\n") if child.type.startswith("math") else 0


def _find_separator(children: list[Token]) -> tuple[list[Token], list[Token]] | None:
    """Split top-level inline tokens at the first ``:::`` separator."""
    depth = 0
    for index, child in enumerate(children):
        depth += child.nesting
        if child.type != "text" or depth != 0:
            continue
        starts_line = index == 0 or children[index - 1].type in ("softbreak", "hardbreak")
        for match in _SEPARATOR.finditer(child.content):
            if match.start() == 0 and not starts_line and index > 0:
                continue  # glued to the previous token, e.g. `*q*:::`
            before = child.content[: match.start()].rstrip()
            after = child.content[match.end() :].lstrip()
            head = children[:index] + ([_text_like(child, before)] if before else [])
            tail = ([_text_like(child, after)] if after else []) + children[index + 1 :]
            return _strip_trailing_space(head), _strip_leading_breaks(tail)
    return None


def _split_at_next_item(
    lead: list[Token], paragraph: Paragraph
) -> tuple[list[Token], Paragraph | None]:
    """Cut an answer where a later line of the same paragraph holds a separator.

    ``Data ::: A`` and ``Model ::: B`` on consecutive lines are two items,
    as their author means, not one answer that shows a stray ``:::``.
    """
    for index, child in enumerate(lead):
        if child.type not in ("softbreak", "hardbreak"):
            continue
        line_end = next(
            (j for j in range(index + 1, len(lead)) if lead[j].type in ("softbreak", "hardbreak")),
            len(lead),
        )
        if _find_separator(lead[index + 1 : line_end]) is None:
            continue
        rest = lead[index + 1 :]
        first = int(rest[0].meta.get("line", paragraph.line)) if rest else paragraph.end_line
        source = "\n".join(paragraph.source.split("\n")[first - paragraph.line :])
        stray = tuple(n for n in paragraph.stray_dollar_lines if n >= first)
        return lead[:index], Paragraph(rest, first, paragraph.end_line, source, stray)
    return lead, None


def _link_target(text: str) -> str:
    """The target of ``![alt](target)`` as written: up to its unmatched ``)``."""
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return text[:index]
    return text


def _text_like(token: Token, content: str) -> Token:
    """A text token with other content (cheaper than ``Token.copy``)."""
    return Token("text", "", 0, content=content, meta=dict(token.meta))


def _strip_trailing_space(children: list[Token]) -> list[Token]:
    out = list(children)
    while out and out[-1].type in ("softbreak", "hardbreak"):
        out.pop()
    return out


def _strip_leading_breaks(children: list[Token]) -> list[Token]:
    out = list(children)
    while out and out[0].type in ("softbreak", "hardbreak"):
        out.pop(0)
    return out


def _lead_line(paragraph: Paragraph, lead: list[Token]) -> int:
    return int(lead[0].meta.get("line", paragraph.line)) if lead else paragraph.line


def _trailing_comment(children: list[Token]) -> str | None:
    """The HTML comment that ends a paragraph, if any."""
    for child in reversed(children):
        if child.type == "text" and not child.content.strip():
            continue
        if child.type == "html_inline" and is_comment(child.content):
            return child.content
        return None
    return None


def _plain_text(children: Sequence[Token]) -> str:
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline", "math_inline", "math_inline_double"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.children:
            parts.append(_plain_text(child.children))
    return "".join(parts).strip()


def _callout_kind(block: list[Token]) -> str | None:
    if len(block) < 4 or block[1].type != "paragraph_open":
        return None
    first_line = block[2].content.split("\n", 1)[0]
    match = _CALLOUT.match(first_line.strip())
    return match.group(1).lower() if match else None


def _callout_title(source: str) -> str | None:
    """The title written after a callout's ``[!kind]`` marker, if any."""
    match = _CALLOUT.match(source.split("\n", 1)[0].strip())
    return match.group(2).strip() or None if match else None


def _after_marker_line(marker: Paragraph) -> Paragraph:
    """The rest of a callout's first paragraph, after its marker line."""
    for index, child in enumerate(marker.children):
        if child.type in ("softbreak", "hardbreak"):
            rest = marker.children[index + 1 :]
            source = marker.source.split("\n", 1)[1] if "\n" in marker.source else ""
            stray = tuple(n for n in marker.stray_dollar_lines if n > marker.line)
            return Paragraph(rest, marker.line + 1, marker.end_line, source, stray)
    return Paragraph([], marker.end_line, marker.end_line, "")


def _split_source(source: str, front: list[Token], has_separator: bool) -> tuple[str, str]:
    """Cut a paragraph's markdown at its separator: question source, answer source."""
    if not has_separator:
        return source, ""
    # Separator-like text inside code or math of the question is not the
    # separator; skip as many matches as those tokens hold.
    skip = sum(
        len(_SEPARATOR.findall(c.content))
        for c in front
        if c.type in ("code_inline", "math_inline", "math_inline_double")
    )
    matches = list(_iter_separators(source))
    if len(matches) <= skip:
        return source, ""
    cut = matches[skip]
    return source[: cut[0]], source[cut[1] :]


def _iter_separators(source: str) -> Iterator[tuple[int, int]]:
    for match in _SOURCE_SEPARATOR.finditer(source):
        yield match.start(), match.end()
