"""``--from hashcards``: ``Q:``/``A:`` cards and ``C:`` cards with ``[deletions]``.

A line starting ``Q:``, ``A:`` or ``C:`` starts a question, its answer or a
cloze card; other lines continue the card being read (lines before the first
card are not cards). Each ``[bracketed]`` part of a cloze card is one
deletion, one card each, as hashcards makes them (``![image](…)`` is not);
here each becomes ``{{cN::…}}``. Optional TOML front matter between ``---``
lines names the deck (``name = "…"``); else the file stem does. One file is
one deck. hashcards names a card by the hash of its text, not a GUID.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ankigen.errors import UsageError
from ankigen.importers.ankigen_html import spaced_cloze
from ankigen.importers.model import ImportedDeck, ImportResult, Origin
from ankigen.importers.text_source import (
    Collector,
    origin,
    read_text,
    source_files,
    source_root,
)
from ankigen.parse.slug import slugify

_TAG = re.compile(r"^([QAC]):")
_DELETION = re.compile(r"(?<!!)\[([^\[\]]*)\]")


def import_source(source: Path) -> ImportResult:
    """Read a hashcards file, or every ``.md`` file below a folder (each one deck)."""
    decks, problems = [], []
    taken: set[str] = set()
    for path in source_files(source, (".md",)):
        name, first_line, body = _front_matter(path, read_text(path))
        found = Collector(source_root(source), path)
        _read_cards(path, first_line, body, found)
        stem = slugify(name) or "hashcards"
        while stem in taken:
            stem += "-2"
        taken.add(stem)
        source_name = f"hashcards {path.name}"
        decks.append(ImportedDeck(name, stem, tuple(found.items), source_name, media=found.media))
        problems += found.problems
    return ImportResult(tuple(decks), tuple(problems))


def _front_matter(path: Path, text: str) -> tuple[str, int, list[str]]:
    """The deck name, the first line of the cards, and their lines."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return path.stem, 1, lines
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise UsageError(f"{path}:1: front matter '---' is never closed")
    try:
        data = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}:2: front matter is not TOML: {exc}") from None
    name = data.get("name")
    return (
        (name if isinstance(name, str) and name.strip() else path.stem),
        end + 2,
        lines[end + 1 :],
    )


def _read_cards(path: Path, first_line: int, lines: list[str], found: Collector) -> None:
    card: list[tuple[str, int, list[str]]] = []  # (tag, line, text lines) of the open card
    for number, line in enumerate(lines, start=first_line):
        match = _TAG.match(line)
        tag = match.group(1) if match else None
        if tag in ("Q", "C") or (tag == "A" and (not card or card[-1][0] != "Q")):
            _finish(path, card, found)
            card = []
        if tag is not None:
            card.append((tag, number, [line[2:].strip()]))
        elif card:
            card[-1][2].append(line)
    _finish(path, card, found)


def _finish(path: Path, card: list[tuple[str, int, list[str]]], found: Collector) -> None:
    if not card:
        return
    tag, line, _ = card[0]
    where = origin(path, line)
    texts = ["\n".join(lines).strip() for _, _, lines in card]
    if tag == "C":
        found.add(where, _clozes(texts[0], where, found), "", dollar_math=True, cloze=True)
    elif tag == "Q" and len(card) == 2:
        found.add(where, texts[0], texts[1], dollar_math=True)
    else:
        found.problems.append(
            where.lost("an answer without its question, or a question without 'A:'")
        )


def _clozes(text: str, where: Origin, found: Collector) -> str:
    """``[deletion]`` → ``{{cN::deletion}}``, numbered in order (code spans left alone)."""
    number = 0

    def deletion(match: re.Match[str]) -> str:
        nonlocal number
        number += 1
        return spaced_cloze(number, match.group(1))

    parts = re.split(r"(`+[^`]*`+)", text)
    converted = "".join(p if p.startswith("`") else _DELETION.sub(deletion, p) for p in parts)
    if number == 0:
        found.problems.append(where.lost("a cloze card without a [deletion]"))
    return converted
