"""``--from mdanki``: each ``## `` heading starts a card: its text the front, what follows the back.

A line holding only ``%`` inside a card splits it instead: what comes before
(the heading and its text) is the front, what comes after the back. A line
starting with ``[#tag](…)`` links gives the card's tags (spaces in a tag
become ``_``). When one file is read, its ``# `` heading names the deck (else
the file stem); a folder is one deck, named after it. mdanki has no math
syntax: a ``$`` is text. Its notes' GUIDs are random, so none is kept.
"""

from __future__ import annotations

import re
from pathlib import Path

from ankigen.importers.model import ImportedDeck, ImportResult
from ankigen.importers.text_source import (
    Collector,
    origin,
    read_text,
    source_files,
    source_root,
)
from ankigen.parse.slug import slugify

_CARD = re.compile(r"^## +(.*)$")
_TITLE = re.compile(r"^# +(.*)$")
_TAGS = re.compile(r"^\[#")
_TAG = re.compile(r"\[#([^\]]+)\]\([^)]*\)")


def import_source(source: Path) -> ImportResult:
    """Read one mdanki file, or every ``.md``/``.markdown`` file below a folder (one deck)."""
    files = source_files(source)
    found = Collector(source_root(source))
    title = None
    for path in files:
        found.file = path
        title = _read_file(path, found) or title
    folder_name = source.resolve().name or "mdanki"
    name = (title or source.stem) if source.is_file() else folder_name
    stem, label = slugify(name) or "mdanki", f"mdanki {source.name}"
    deck = ImportedDeck(name, stem, tuple(found.items), label, media=found.media)
    return ImportResult((deck,), tuple(found.problems))


def _read_file(path: Path, found: Collector) -> str | None:
    title = None
    card: tuple[int, str, list[str]] | None = None
    fence = False
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        heading = None if fence else _CARD.match(line)
        if heading:
            _finish(path, card, found)
            card = (number, heading.group(1).strip(), [])
        elif card is not None:
            card[2].append(line)
        elif title is None and not fence and (match := _TITLE.match(line)):
            title = match.group(1).strip()
    _finish(path, card, found)
    return title


def _finish(path: Path, card: tuple[int, str, list[str]] | None, found: Collector) -> None:
    if card is None:
        return
    line, heading, body = card
    tags: list[str] = []
    kept = []
    for text in body:
        if _TAGS.match(text.strip()) and not tags:
            tags = [t.strip().replace(" ", "_") for t in _TAG.findall(text)]
        else:
            kept.append(text)
    split = next((i for i, text in enumerate(kept) if text.strip() == "%"), None)
    if split is None:
        front, back = heading, "\n".join(kept)
    else:
        front, back = heading + "\n\n" + "\n".join(kept[:split]), "\n".join(kept[split + 1 :])
    found.add(origin(path, line), front, back, dollar_math=False, tags=tuple(tags))
