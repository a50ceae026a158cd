"""``--from obsidian-to-anki``: its default ``START``/``END`` notes, ``STARTI``/``ENDI`` and ``::``.

A note block is ``START``, the note type on the next line, its fields, and
``END``; the first field starts after the note type, another starts on a line
beginning with its name and a colon (``Back:``); a last line ``Tags: a b``
gives tags; an ``ID: …`` line (or ``<!--ID: …-->``) is the Anki note id the
plugin wrote, which is no GUID and is dropped. An inline note is
``STARTI [Type] front Back: back ENDI`` on one line, and a line
``question::answer`` is a Basic note. ``TARGET DECK`` and ``FILE TAGS``, each
followed by a line, name the deck and tags of the file. Math is Obsidian's
``$…$``. One file is one deck (named by ``TARGET DECK``, else the file stem).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ankigen.importers.model import ImportedDeck, ImportResult, Origin
from ankigen.importers.text_source import (
    Collector,
    origin,
    read_text,
    source_files,
    source_root,
)
from ankigen.parse.slug import slugify
from ankigen.syntax import cloze

#: The fields of Anki's stock note types, by the name Obsidian_to_Anki gives them.
FIELDS = {
    "Basic": ("Front", "Back"),
    "Basic (and reversed card)": ("Front", "Back"),
    "Basic (optional reversed card)": ("Front", "Back", "Add Reverse"),
    "Basic (type in the answer)": ("Front", "Back"),
    "Cloze": ("Text", "Back Extra"),
}
_ID = re.compile(r"^(?:<!--)?ID: \d+.*$")
_INLINE = re.compile(r"STARTI\s*\[(?P<type>[^\]]*)\](?P<body>.*?)ENDI")
_PAIR = re.compile(r"^(?P<front>.*?[^:\s]) ?::(?!:) ?(?P<back>[^:].*)$")


def import_source(source: Path) -> ImportResult:
    """Read a file, or every ``.md`` file below a folder (each one deck)."""
    decks, problems = [], []
    taken: set[str] = set()
    for path in source_files(source, (".md",)):
        found = Collector(source_root(source), path)
        deck, file_tags = _read_file(path, found)
        name = deck or path.stem
        stem = slugify(path.stem) or "obsidian"
        while stem in taken:
            stem += "-2"
        taken.add(stem)
        items = tuple(replace(item, tags=(*file_tags, *item.tags)) for item in found.items)
        source_name = f"obsidian-to-anki {path.name}"
        decks.append(ImportedDeck(name, stem, items, source_name, media=found.media))
        problems += found.problems
    return ImportResult(tuple(decks), tuple(problems))


def _read_file(path: Path, found: Collector) -> tuple[str | None, tuple[str, ...]]:
    lines = read_text(path).split("\n")
    deck: str | None = None
    tags: tuple[str, ...] = ()
    index = 0
    fence = False
    while index < len(lines):
        line = lines[index].rstrip()
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence:
            index += 1
            continue
        if line == "TARGET DECK" and index + 1 < len(lines):
            deck, index = lines[index + 1].strip() or None, index + 2
            continue
        if line == "FILE TAGS" and index + 1 < len(lines):
            tags, index = tuple(lines[index + 1].split()), index + 2
            continue
        if line == "START":
            end = next(
                (i for i in range(index + 1, len(lines)) if lines[i].rstrip() == "END"), None
            )
            if end is None:
                found.problems.append(origin(path, index + 1).lost("a START without its END"))
                return deck, tags
            _note(origin(path, index + 1), lines[index + 1 : end], found)
            index = end + 1
            continue
        for match in _INLINE.finditer(line):
            _inline(origin(path, index + 1), match, found)
        pair = None if _INLINE.search(line) or cloze.has_cloze(line) else _PAIR.match(line)
        if pair:
            found.add(origin(path, index + 1), pair["front"], pair["back"], dollar_math=True)
        index += 1
    return deck, tags


def _note(where: Origin, lines: list[str], found: Collector) -> None:
    body = [line for line in lines if not _ID.match(line.strip())]
    if not body:
        found.problems.append(where.lost("an empty note"))
        return
    note_type, body = body[0].strip(), body[1:]
    tags: tuple[str, ...] = ()
    while body and not body[-1].strip():
        body.pop()
    if body and body[-1].startswith("Tags: "):
        tags = tuple(body.pop()[len("Tags: ") :].split())
    names = FIELDS.get(note_type, ("Front", "Back"))
    fields: dict[str, list[str]] = {name: [] for name in names}
    current = names[0]
    for line in body:
        for name in names:
            if line.startswith(name + ":"):
                current, line = name, line[len(name) + 1 :]
                break
        fields[current].append(line)
    texts = ["\n".join(fields[name]).strip() for name in names]
    _add(where, note_type, texts, tags, found)


def _inline(where: Origin, match: re.Match[str], found: Collector) -> None:
    note_type = match["type"].strip()
    body = re.sub(r"(?:<!--)?ID: \d+(?:-->)?", "", match["body"])
    tags: tuple[str, ...] = ()
    tag_match = re.search(r"Tags: (.*)$", body)
    if tag_match:
        tags, body = tuple(tag_match[1].split()), body[: tag_match.start()]
    names = FIELDS.get(note_type, ("Front", "Back"))
    fields: dict[str, list[str]] = {name: [] for name in names}
    current = names[0]
    for word in body.split(" "):
        if word in {name + ":" for name in names}:
            current = word[:-1]
            continue
        fields[current].append(word)
    _add(where, note_type, [" ".join(fields[n]).strip() for n in names], tags, found)


def _add(
    where: Origin, note_type: str, texts: list[str], tags: tuple[str, ...], found: Collector
) -> None:
    if note_type not in FIELDS:
        found.problems.append(where.lost(f"note type '{note_type}' (read as Front and Back)"))
    if "reversed" in note_type:
        found.problems.append(where.lost(f"the reverse card of note type '{note_type}'"))
    if len(texts) > 2 and any(texts[2:]):
        found.problems.append(where.lost(f"fields after the second of note type '{note_type}'"))
    cloze = note_type == "Cloze"
    found.add(where, texts[0], texts[1], dollar_math=True, cloze=cloze, tags=tags)
