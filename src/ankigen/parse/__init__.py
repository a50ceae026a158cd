"""Parse stage: one content file in, one ``Deck`` (and its diagnostics) out."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from markdown_it.token import Token

from ankigen.build.pool import BuildPool
from ankigen.diagnostics import Code, Diagnostic, Sink, error, sort_diagnostics
from ankigen.model import ClaimLevel, Deck, Item, ItemKind, MathMode
from ankigen.parse.collector import collector_paused
from ankigen.parse.context import item_contexts
from ankigen.parse.freeze import freeze_section, normalise_source, note_guid, shows_nothing
from ankigen.parse.frontmatter import FrontMatter, read_front_matter
from ankigen.parse.headings import (
    file_deck_name_problem,
    first_title_only,
    subdecks_under_title,
)
from ankigen.parse.lost_text import joined_sections
from ankigen.parse.markdown import content_parser
from ankigen.parse.pooled import parse_sections
from ankigen.parse.section_cache import SectionCache, SectionResult, section_cache, section_key
from ankigen.parse.section_text import SectionText, SomeSections
from ankigen.parse.sections import OutsideSection, Section, cut_sections, line_count
from ankigen.syntax.cloze import written
from ankigen.syntax.tex_macros import NO_MACROS, Macros

__all__ = [
    "ParseResult",
    "SectionCache",
    "normalise_source",
    "note_guid",
    "parse_file",
    "parse_text",
    "section_cache",
]


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
    cache: SectionCache | None = None,
    default_claims: ClaimLevel = ClaimLevel.ANSWERS,
    macros: Macros = NO_MACROS,
    pool: BuildPool | None = None,
) -> ParseResult:
    """Read and parse one content file; ``root`` is the content root for images.

    ``default_math`` is the math mode of a file whose front matter names none,
    ``default_claims`` its claim level.
    With a ``cache``, sections unchanged since the last parse are not parsed again.
    ``macros``: the project's TeX macros (format §17); the front matter's override them.
    ``pool``: the build's, which parses part of a big file (``parse.pooled``).
    """
    shown = display_path or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        unreadable = Code.FILE_UNREADABLE.message(reason=exc.strerror)
        # The whole file: its first character.
        problem = error(shown, 1, unreadable, column=1, code=Code.FILE_UNREADABLE)
        return ParseResult(None, (problem,))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if raw.startswith(b"\xef\xbb\xbf") else 0)  # after the BOM
        line = raw.count(b"\n", 0, start) + 1
        line_start = raw.rfind(b"\n", 0, start) + 1  # the line is UTF-8 up to the byte
        column = len(raw[line_start:start].decode("utf-8-sig")) + 1
        message = Code.FILE_NOT_UTF8.message(byte=raw[start])
        return ParseResult(
            None, (error(shown, line, message, column=column, code=Code.FILE_NOT_UTF8),)
        )
    del raw  # a big file is not held twice
    owned = [text]
    del text  # `owned` holds the only reference, which the parse lets go (``_parse_owned``)
    return _parse_owned(owned, path, root, shown, default_math, cache, default_claims, macros, pool)


def parse_text(
    text: str,
    path: Path,
    root: Path,
    display_path: str,
    default_math: MathMode = MathMode.IMAGE,
    cache: SectionCache | None = None,
    default_claims: ClaimLevel = ClaimLevel.ANSWERS,
    macros: Macros = NO_MACROS,
) -> ParseResult:
    """Parse content already read as text (``path`` names the deck and resolves images).

    The text is parsed section by section (``parse.sections``): the same
    tokens as one parse of the whole file, but each section's tokens are freed
    once its items are frozen, and with a ``cache`` an unchanged section is
    not parsed at all.
    """
    return _parse_owned(
        [text], path, root, display_path, default_math, cache, default_claims, macros
    )


def _parse_owned(
    owned: list[str],
    path: Path,
    root: Path,
    display_path: str,
    default_math: MathMode,
    cache: SectionCache | None,
    default_claims: ClaimLevel = ClaimLevel.ANSWERS,
    macros: Macros = NO_MACROS,
    pool: BuildPool | None = None,
) -> ParseResult:
    """``parse_text`` of the one text in ``owned``, which is taken out of it: when the
    caller holds no other reference, the string is freed once normalised (a big file
    is not held twice)."""
    with collector_paused():  # a parse makes no reference cycle (``parse.collector``)
        return _parse_all_sections(
            owned, path, root, display_path, default_math, cache, default_claims, macros, pool
        )


def _parse_all_sections(
    owned: list[str],
    path: Path,
    root: Path,
    display_path: str,
    default_math: MathMode,
    cache: SectionCache | None,
    default_claims: ClaimLevel,
    macros: Macros,
    pool: BuildPool | None,
) -> ParseResult:
    """``_parse_owned``'s work, with the collector paused."""
    # The one place content enters: NFC, as Anki stores every field, so that what
    # the build judges and writes is what Anki keeps (columns count NFC characters).
    sections = _cut(unicodedata.normalize("NFC", owned.pop()))
    try:
        sink, front, key, results = _parse_sections(
            sections, path, display_path, cache, macros, pool
        )
    except OutsideSection:
        # Never expected (the tests say so); should a cut be wrong, the file is read whole.
        sections = _cut(sections.whole(), whole=True)
        sink, front, key, results = _parse_sections(sections, path, display_path, None, macros)
    _nul_characters(sections.whole(), sink)
    _bidi_overrides(sections.whole(), sink)
    del sections  # the file's text goes before the deck is put together

    title = next((r.title for r in results if r.title is not None), None)
    name = front.deck or title or unicodedata.normalize("NFC", path.stem)
    if not (front.deck or title):
        file_deck_name_problem(name, sink)
    items = _placed_items(results, front, name, sink)
    _duplicate_guids(items, sink)
    if not items:
        sink.warning(
            1,
            Code.NO_ITEMS.message(cloze=written(1, "word")),
            column=1,  # the whole file: its first character
            code=Code.NO_ITEMS,
        )
    deck = Deck(
        path=path,
        display_path=display_path,
        root=root,
        name=name,
        key=key,
        math=front.math or default_math,
        items=tuple(items),
        formulas=tuple(block for result in results for block in result.formulas),
        tags=front.tags,
        key_line=1 + front.key_line if front.key_line else 0,
        claims=front.claims or default_claims,
        prose=tuple(prose for result in results for prose in result.prose),
        macros=tuple(sorted({*macros, *(macro.name for macro in front.macros)})),
    )
    return ParseResult(deck, tuple(sort_diagnostics(sink.diagnostics)))


_Sections = tuple[Sink, FrontMatter, str, list[SectionResult]]


def _cut(text: str, whole: bool = False) -> SectionText:
    """The file's text and its sections (one, the whole file, with ``whole`` or when it
    cannot be cut)."""
    cut = None if whole else cut_sections(text)
    if cut is None:
        return SectionText(text, [0], [0, len(text)], len(text.splitlines()))
    # Each section brings its own lines (``SectionLines``): the file's are not made here.
    return SectionText(text, *cut, line_count(text))


def _parse_sections(
    sections: SectionText,
    path: Path,
    display_path: str,
    cache: SectionCache | None,
    project_macros: Macros = NO_MACROS,
    pool: BuildPool | None = None,
) -> _Sections:
    """The file's sink (front matter problems, then every section's), front matter, key
    and every section's result."""
    sink = Sink(display_path)
    total = sections.total
    opening = sections.section(0)
    # Only a file starting with "-" can have front matter: read it before any section.
    first_tokens = content_parser().parse(opening.text) if opening.text[:1] == "-" else None
    front = _front_matter(first_tokens or [], sink)
    # NFC: a file re-saved by an editor that writes decomposed accents keeps its deck ids.
    key = unicodedata.normalize("NFC", front.key or path.stem)
    # A front matter macro overrides a project one of the same name (format §17).
    macros = {**project_macros, **{macro.name: macro for macro in front.macros}}
    shape = (display_path, repr(front) + repr(sorted(project_macros.items())), key)
    results = [_section(opening, total, first_tokens, front, shape, cache, macros)]
    del first_tokens, opening  # only the opening section's tokens were parsed up front
    # The rest, in order: each from the cache, else parsed (a big file's partly in the
    # build's pool: ``parse.pooled``) and then remembered.
    # The sections to parse are cut from the file's text one at a time, as they are parsed.
    found = [_cached(sections, n, shape, cache) for n in range(1, len(sections))]
    missing = [n for n, entry in enumerate(found, 1) if not isinstance(entry, SectionResult)]
    parse_one = functools.partial(_fresh, total=total, front=front, shape=shape, macros=macros)
    parsed = parse_sections(SomeSections(sections, missing), parse_one, pool)
    for number, entry in enumerate(found, 1):
        if isinstance(entry, SectionResult):
            results.append(entry)
            continue
        result, stored = next(parsed)
        results.append(result)
        if cache is not None:
            cache.put(entry, result, sections.starts[number], stored)
    sink.diagnostics.extend(first_title_only((r.title, r.diagnostics) for r in results))
    for before, after in itertools.pairwise(results):
        joined_sections(sink, before.edges[1], after.edges[0])
    return sink, front, key, results


def _cached(
    sections: SectionText, number: int, shape: tuple[str, str, str], cache: SectionCache | None
) -> SectionResult | bytes:
    """Section ``number``'s result from the cache; else its cache key."""
    if cache is None:
        return b""
    section = sections.section(number)
    cache_key = section_key(*shape, section.text)
    return cache.get(cache_key, section.start) or cache_key


def _section(
    section: Section,
    total: int,
    tokens: list[Token] | None,
    front: FrontMatter,
    shape: tuple[str, str, str],
    cache: SectionCache | None,
    macros: Macros,
) -> SectionResult:
    """One section's result: from the cache if it holds it, else parsed and frozen."""
    cache_key = section_key(*shape, section.text) if cache is not None else b""
    cached = cache.get(cache_key, section.start) if cache is not None else None
    if cached is not None:
        return cached
    result = _fresh(section, tokens, total=total, front=front, shape=shape, macros=macros)
    if cache is not None:
        cache.put(cache_key, result, section.start)
    return result


def _fresh(
    section: Section,
    tokens: list[Token] | None = None,
    *,
    total: int,
    front: FrontMatter,
    shape: tuple[str, str, str],
    macros: Macros = NO_MACROS,
) -> SectionResult:
    """One section parsed and frozen (``tokens``: its markdown-it tokens, if parsed already)."""
    if tokens is None:
        tokens = content_parser().parse(section.text)
    _shift_lines(tokens, section.start)
    display_path, _, key = shape
    return freeze_section(tokens, section.lines(total), front, key, display_path, macros)


def _placed_items(
    results: list[SectionResult], front: FrontMatter, name: str, sink: Sink
) -> list[Item]:
    """Every item with its subdeck and context line, which depend on the whole file."""
    placed = [
        _Place(item.kind, asks, section, callout_title)
        for result in results
        for item, (section, callout_title, asks) in zip(result.items, result.places, strict=True)
    ]
    contexts = item_contexts(placed, front, sink)
    if front.subdecks and front.deck is None:
        lines = (item.line for result in results for item in result.items)
        sections = (place.section for place in placed)
        subdecks_under_title(zip(lines, sections, strict=True), name, sink)
    items: list[Item] = []
    for item, place, context in zip(
        (item for result in results for item in result.items), placed, contexts, strict=True
    ):
        subdeck = f"{name}::{place.section}" if front.subdecks and place.section else None
        if subdeck is not None or context is not None:
            item = replace(item, subdeck=subdeck, context=context)
        items.append(item)
    return items


class _Place(NamedTuple):
    """What the context rule reads of an item (see ``parse.context``); a tuple: cheap."""

    kind: ItemKind
    asks: bool
    section: str | None
    callout_title: str | None


def _shift_lines(tokens: Sequence[Token], offset: int) -> None:
    """Token lines counted from the section's start become the file's."""
    if offset == 0:
        return
    for token in tokens:
        if token.map:
            token.map = [token.map[0] + offset, token.map[1] + offset]
        if token.children:
            _shift_lines(token.children, offset)


def _front_matter(tokens: Sequence[Token], sink: Sink) -> FrontMatter:
    if not tokens or tokens[0].type != "front_matter":
        _unclosed_front_matter(tokens, sink)
        return FrontMatter()
    # The YAML's first line is the file's second line, after `---`.
    return read_front_matter(tokens[0].content, sink.below(2))


#: A line of YAML that sets a key (``deck: Biology``), as front matter starts.
_YAML_KEY = re.compile(r"[A-Za-z_][\w-]*:(?:[ \t]|$)")


def _unclosed_front_matter(tokens: Sequence[Token], sink: Sink) -> None:
    """AG113's sibling: a file that opens front matter (``---``, then ``key: value``
    lines) but never closes it. markdown-it reads no front matter then, but a rule
    and a paragraph: every setting would be prose, on no card, without a word."""
    if len(tokens) < 3 or tokens[0].type != "hr" or not tokens[0].markup.startswith("-"):
        return
    if tokens[0].map != [0, 1] or tokens[1].type != "paragraph_open":
        return
    if _YAML_KEY.match(tokens[2].content):
        message = Code.FRONT_MATTER_UNCLOSED.message()
        sink.warning(1, message, column=1, code=Code.FRONT_MATTER_UNCLOSED)


def _place(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in the whole file's ``text``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _nul_characters(text: str, sink: Sink) -> None:
    """AG145: NUL characters, which markdown replaces (CommonMark) with U+FFFD, at the first."""
    first = text.find("\x00")
    if first < 0:
        return  # the common case: one scan in C
    count = text.count("\x00")
    line, column = _place(text, first)
    several = count > 1
    message = Code.NUL_CHARACTER.message(
        count=count, s="s" if several else "", them="them" if several else "it"
    )
    sink.warning(line, message, column=column, code=Code.NUL_CHARACTER)


#: The bidirectional overrides: the characters after one show in reverse order.
_OVERRIDE = re.compile("[\u202d\u202e]")


def _bidi_overrides(text: str, sink: Sink) -> None:
    """AG149: an override makes a card show ``128`` as ``821`` while ``128`` is checked."""
    first = _OVERRIDE.search(text)
    if first is None:
        return  # the common case: one scan in C
    found = _OVERRIDE.findall(text)
    line, column = _place(text, first.start())
    several = len(found) > 1
    which = ", ".join(sorted({f"U+{ord(c):04X}" for c in found}))
    message = Code.BIDI_OVERRIDE.message(
        count=len(found),
        s="s" if several else "",
        which=which,
        it="them" if several else "it",
        them="them" if several else "it",
    )
    sink.error(line, message, column=column, code=Code.BIDI_OVERRIDE)


def _duplicate_guids(items: list[Item], sink: Sink) -> None:
    first: dict[str, Item] = {}
    for item in items:
        if item.kind is ItemKind.REVEAL and shows_nothing(item.front):
            continue  # an empty question is an error of its own (AG105), not a duplicate
        # By GUID and by id: a reveal and a cloze item with one id have two GUIDs (a
        # cloze's holds its kind) but are still one id twice; two ids may share an
        # explicit ``guid:`` (an imported deck's).
        keys = [item.guid]
        if item.note_id:
            keys.append("id:" + unicodedata.normalize("NFC", item.note_id))
        earlier_item = next((first[key] for key in keys if key in first), item)
        for key in keys:
            first.setdefault(key, item)
        earlier = earlier_item.line
        if earlier == item.line:
            continue
        if item.note_id and item.note_id != earlier_item.note_id:
            how = f"guid '{item.guid}'"  # an explicit `guid:` (an imported deck's)
        else:
            how = f"id '{item.note_id}'" if item.note_id else "question"
        for line, other in ((earlier, item.line), (item.line, earlier)):
            sink.error(
                line,
                Code.DUPLICATE_GUID.message(same=how, other=other),
                column=1,  # the item's line (the file's text is freed by now)
                code=Code.DUPLICATE_GUID,
            )
