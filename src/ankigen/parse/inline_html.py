"""Format §16: raw HTML in an item, through an allow-list sanitiser (nh3, Rust's ammonia).

markdown-it reads raw HTML as ``html_inline`` tokens (one per tag, in a
paragraph) and ``html_block`` tokens (a block of lines that starts with a
tag). Each tag is judged here, and the fragment renderer and the warnings
both ask the same judge, so what passes and what is reported never differ:

- an element of ``ALLOWED`` passes, sanitised by nh3 to the attributes of
  ``ATTRIBUTES`` (no other attribute, no script, no event handler, no style);
  an opening tag passes only with its closing tag in the same paragraph or
  block (so no element runs on into the rest of the card);
- ``<img>`` whose ``src`` is a local path is an image, as ``![alt](src)``
  (format §8: the render stage resolves it inside the content root);
- any other tag (and an ``<img>`` of a URL) is shown as the text the author
  wrote, with a warning (AG150) at its line and column naming the element; an
  attribute the sanitiser dropped is a warning too (AG151).

Attribute values that pass are written again through ``anki_markup.attribute``
so Anki reads no cloze or bracket command in them; text in a passing HTML
block is written with cloze braces made literal, as in code.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

import nh3
from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.parse import token_meta
from ankigen.parse.metadata import is_comment
from ankigen.syntax import anki_markup, cloze

#: The elements that may reach a card, and the attributes each may keep.
ALLOWED = frozenset(
    {"br", "sub", "sup", "b", "i", "strong", "em", "u", "s", "mark", "small", "kbd"}
    | {"abbr", "details", "summary", "img"}
)
ATTRIBUTES = {"abbr": {"title"}, "img": {"src", "alt"}}
_VOID = frozenset({"br", "img"})

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)\s*(/?)>", re.S)
_ATTRIBUTE = re.compile(r"([^\s\"'>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_ANY_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^>]*>|<![^>]*>|<\?.*?\?>", re.S)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class Tag:
    """One tag as written: closing or not, its element (lower case), its attributes."""

    closing: bool
    name: str
    attributes: tuple[tuple[str, str], ...]
    source: str


@dataclass(frozen=True)
class Verdict:
    """What a tag becomes: ``html`` to write as is, an image, or literal text.

    ``refused`` names the element shown as text (empty when the tag passes),
    ``why`` and ``fix`` say why and what to write; ``dropped`` names the
    attributes the sanitiser removed from a passing tag.
    """

    html: str = ""
    image: tuple[str, str] | None = None  # (src, alt) of a local <img>
    refused: str = ""
    why: str = ""
    fix: str = "write markdown instead"
    dropped: tuple[str, ...] = ()


def read_tag(source: str) -> Tag | None:
    """``source`` read as one HTML tag (None: a comment, declaration or not a tag)."""
    match = _TAG.fullmatch(source.strip())
    if match is None:
        return None
    attributes = tuple(
        (name.lower(), html.unescape(value.strip("\"'")) if value else "")
        for name, value in _ATTRIBUTE.findall(match.group(3))
    )
    return Tag(bool(match.group(1)), match.group(2).lower(), attributes, source)


def judge_run(sources: Sequence[str]) -> list[Verdict | None]:
    """The verdict on each tag of a run (a paragraph's inline HTML, or one HTML block).

    None for a comment (metadata or a remark: shown as nothing) or text.
    Opening and closing tags of allowed elements pass only in matched pairs.
    """
    tags = [read_tag(source) if not is_comment(source) else None for source in sources]
    verdicts: list[Verdict | None] = [
        _single(tag, source) if tag is not None else _not_a_tag(source)
        for tag, source in zip(tags, sources, strict=True)
    ]
    open_tags: list[int] = []
    for index, tag in enumerate(tags):
        verdict = verdicts[index]
        if tag is None or verdict is None or verdict.refused or tag.name in _VOID:
            continue
        if not tag.closing:
            open_tags.append(index)
        elif (
            open_tags and tags[open_tags[-1]] is not None and _name(tags[open_tags[-1]]) == tag.name
        ):
            open_tags.pop()
        else:
            verdicts[index] = _unmatched(tag, "closes no open element")
    for index in open_tags:
        tag = tags[index]
        assert tag is not None
        verdicts[index] = _unmatched(tag, "is never closed")
    return verdicts


def _name(tag: Tag | None) -> str:
    return tag.name if tag is not None else ""


def _not_a_tag(source: str) -> Verdict | None:
    if is_comment(source):
        return None
    shown = source.strip()[:20]
    return Verdict(refused=shown, why="is not an element a card may hold")


def _unmatched(tag: Tag, why: str) -> Verdict:
    fix = f"open and close <{tag.name}> in the same paragraph or HTML block{_as_text(tag)}"
    return Verdict(refused=tag.name, why=why, fix=fix)


def _as_text(tag: Tag) -> str:
    """How to show the tag's own text, meant as text (``Option<T>``, ``<Ctrl>+<S>``)."""
    written = tag.source.strip()
    if len(written) > 40 or "\n" in written:
        return "; for the text itself, put it in backticks or write '\\<' for '<'"
    return f"; for the text itself, write '\\{written}' or put it in backticks"


_NOT_ALLOWED = (
    "is not allowed on a card (a card may hold br, sub, sup, b, i, strong, em, u, s, mark, "
    "small, kbd, abbr, details, summary and img of a local file)"
)


def _single(tag: Tag, source: str) -> Verdict:
    """A tag judged alone (its pairing is ``judge_run``'s)."""
    if tag.name not in ALLOWED:
        return Verdict(
            refused=tag.name, why=_NOT_ALLOWED, fix="write markdown instead" + _as_text(tag)
        )
    if tag.name == "img":
        return _image(tag)
    if tag.closing:
        return Verdict(html=f"</{tag.name}>")
    closing = "" if tag.name in _VOID else f"</{tag.name}>"
    cleaned = nh3.clean(
        source.strip() + closing,
        tags=set(ALLOWED),
        # "*": no attribute on every element (ammonia's default keeps lang and title)
        attributes={"*": set(), **ATTRIBUTES},
    )
    opening = cleaned[: len(cleaned) - len(closing)] if closing else cleaned
    kept = read_tag(opening)
    if kept is None or kept.name != tag.name or (closing and not cleaned.endswith(closing)):
        return Verdict(refused=tag.name, why="could not be sanitised")
    return Verdict(html=_write(kept), dropped=_dropped(tag, kept))


def _image(tag: Tag) -> Verdict:
    """``<img src=local>`` is ``![alt](src)``; any other is text."""
    values = dict(tag.attributes)
    src = values.get("src", "").strip()
    fix = "put the file next to the content and use a relative path"
    if not src:
        return Verdict(refused="img", why="has no 'src'", fix=fix)
    if _SCHEME.match(src) or src.startswith(("/", "\\")):
        return Verdict(refused="img", why=f"loads '{src[:60]}', not a local file", fix=fix)
    kept = tuple(name for name, _ in tag.attributes if name in ATTRIBUTES["img"])
    dropped = tuple(name for name, _ in tag.attributes if name not in kept)
    return Verdict(image=(src, values.get("alt", "")), dropped=dropped)


def _dropped(written: Tag, kept: Tag) -> tuple[str, ...]:
    names = {name for name, _ in kept.attributes}
    return tuple(name for name, _ in written.attributes if name not in names)


def _write(tag: Tag) -> str:
    """A sanitised tag written again, each attribute value escaped for Anki."""
    attributes = "".join(
        f' {name}="{anki_markup.attribute(value)}"' for name, value in tag.attributes
    )
    return f"<{tag.name}{attributes}>"


def judge_blocks(blocks: Sequence[Token]) -> dict[int, list[Verdict | None]]:
    """The verdicts on the tags of the ``html_block`` tokens among ``blocks`` (keyed by
    their index there), judged together: ``<details>`` may open in one HTML block
    and close in a later one, around the markdown of an answer."""
    places: list[tuple[int, str]] = []
    for index, block in enumerate(blocks):
        if block.type == "html_block" and not is_comment(block.content):
            tags = [piece for is_tag, piece in block_pieces(block.content.rstrip()) if is_tag]
            places += [(index, tag) for tag in tags]
    judged: dict[int, list[Verdict | None]] = {}
    for (index, _), verdict in zip(places, judge_run([tag for _, tag in places]), strict=True):
        judged.setdefault(index, []).append(verdict)
    return judged


def block_pieces(content: str) -> list[tuple[bool, str]]:
    """An HTML block cut into tags (True) and the text between them (False)."""
    pieces: list[tuple[bool, str]] = []
    at = 0
    for match in _ANY_TAG.finditer(content):
        if match.start() > at:
            pieces.append((False, content[at : match.start()]))
        pieces.append((True, match.group(0)))
        at = match.end()
    if at < len(content):
        pieces.append((False, content[at:]))
    return pieces


def literal_text(text: str) -> str:
    """Text of an HTML block as a card shows it: escaped, cloze braces made literal."""
    escaped = html.escape(html.unescape(text), quote=False)
    return escaped.replace("{", "&#123;").replace("}", "&#125;").replace(":", "&#58;")


# -- warnings -------------------------------------------------------------------


def report_html(
    inline_runs: Sequence[tuple[Sequence[Token], int]],
    blocks: Sequence[Token],
    lines: Sequence[str],
    sink: Sink,
) -> None:
    """AG150/AG151 for the raw HTML of one item: its inline runs (tokens and first line)
    and the ``html_block`` tokens among its answer's blocks."""
    for children, line in inline_runs:
        _report_inline(children, line, lines, sink)
    for block in blocks:
        if block.type == "inline" and block.children:
            _report_inline(block.children, (block.map[0] + 1) if block.map else 0, lines, sink)
    judged = judge_blocks(blocks)
    placed: list[tuple[str, int]] = []  # every HTML block's tags, with their lines
    for index in judged:
        block = blocks[index]
        pieces = block_pieces(block.content.rstrip())
        first = block.map[0] + 1 if block.map else 0
        placed += [
            (piece, first + _offset_line(pieces, at))
            for at, (is_tag, piece) in enumerate(pieces)
            if is_tag
        ]
    verdicts = [v for verdicts_of_block in judged.values() for v in verdicts_of_block]
    for (piece, line), verdict in zip(placed, _once(verdicts, [p for p, _ in placed]), strict=True):
        _report(verdict, piece, line, lines, sink)


def _report_inline(children: Sequence[Token], line: int, lines: Sequence[str], sink: Sink) -> None:
    """AG150/AG151 for the ``html_inline`` tags of one paragraph starting at ``line``."""
    tags = [c for c in children if c.type == "html_inline"]
    if not tags:
        return  # most paragraphs: nothing to judge
    verdicts = _once(judge_run([c.content for c in tags]), [c.content for c in tags])
    for tag, verdict in zip(tags, verdicts, strict=True):
        _report(verdict, tag.content, token_meta.line_or(tag, line), lines, sink)


def _once(verdicts: list[Verdict | None], sources: Sequence[str]) -> list[Verdict | None]:
    """The verdicts to report: a refused element's closing tag only when its opening one
    was not reported already."""
    reported: set[str] = set()
    kept: list[Verdict | None] = []
    for verdict, source in zip(verdicts, sources, strict=True):
        tag = read_tag(source)
        closing_refused = verdict is not None and verdict.refused and tag is not None
        if closing_refused and tag is not None and tag.closing and tag.name in reported:
            kept.append(None)
            continue
        if verdict is not None and verdict.refused:
            reported.add(verdict.refused)
        kept.append(verdict)
    return kept


def _offset_line(pieces: Sequence[tuple[bool, str]], index: int) -> int:
    return sum(piece.count("\n") for _, piece in pieces[:index])


def _report(
    verdict: Verdict | None, source: str, line: int, lines: Sequence[str], sink: Sink
) -> None:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    column = text.find(source.split("\n", 1)[0]) + 1
    if verdict is None or not verdict.refused:
        _cloze_in_attribute(source, line, column, sink)
    if verdict is None:
        return
    if verdict.refused:
        sink.warning(
            line,
            Code.HTML_SHOWN_AS_TEXT.message(
                element=verdict.refused, why=verdict.why, fix=verdict.fix
            ),
            column=column,
            code=Code.HTML_SHOWN_AS_TEXT,
        )
    elif verdict.dropped:
        element = read_tag(source)
        name = element.name if element is not None else "?"
        dropped = ", ".join(f"'{attribute}'" for attribute in verdict.dropped)
        sink.warning(
            line,
            Code.HTML_ATTRIBUTE_DROPPED.message(attributes=dropped, element=name),
            column=column,
            code=Code.HTML_ATTRIBUTE_DROPPED,
        )


def _cloze_in_attribute(source: str, line: int, column: int, sink: Sink) -> None:
    """AG152: an allowed tag (kept on the card) whose attribute holds cloze syntax, which
    is written inert there: the card its number would make is never made."""
    opener = cloze.OPENER.search(source)
    tag = read_tag(source)
    if opener is None or tag is None or tag.closing:
        return
    before = source[: opener.start()]
    at = column + opener.start() if column and "\n" not in before else column
    sink.warning(
        line + before.count("\n"),
        Code.CLOZE_IN_HTML_ATTRIBUTE.message(element=tag.name),
        column=at,
        code=Code.CLOZE_IN_HTML_ATTRIBUTE,
    )
