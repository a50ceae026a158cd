"""``--from ankdown``: cards ``front`` / ``%`` / ``back`` / ``%`` / ``tags``, ``---`` between.

A line holding only ``%`` separates fields, a line holding only ``---`` (or
``%%``) ends a card; the first field is the front, the second the back and
the third the tags (separated by commas or spaces; later fields are
reported). Math is Anki's ``\\(…\\)`` and ``\\[…\\]`` (a literal ``$`` is text), or ``$…$``
in a file that holds TeX in dollars and no ``\\(`` (ankdown's ``dollar`` option; said).
A folder is one deck, named after it, as ankdown does. Each note keeps the
GUID ankdown gave it (its deck, file name and position in the file).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ankigen.diagnostics import Code, warning
from ankigen.importers.model import ImportedDeck, ImportResult
from ankigen.importers.text_source import (
    Collector,
    numbered_lines,
    origin,
    read_text,
    source_files,
    source_root,
)
from ankigen.parse.slug import slugify

#: ``$…$`` or ``$$…$$`` holding TeX (a backslash, ``^``, ``_`` or a brace), and ``\\(``/``\\[``.
_DOLLAR_TEX = re.compile(r"\$\$?[^$\n]*[\\^_{][^$\n]*\$\$?")
_MATHJAX = re.compile(r"\\[(\[]")


def import_source(source: Path) -> ImportResult:
    """Read an ankdown file, or every ``.md``/``.markdown`` file below a folder."""
    by_folder: dict[Path, Collector] = {}
    for path in source_files(source):
        found = by_folder.setdefault(path.parent, Collector(source_root(source)))
        found.file = path
        _read_file(path, found)
    decks, problems = [], []
    taken: set[str] = set()
    for folder, found in by_folder.items():
        name = folder.resolve().name or "ankdown"
        stem = _unique(slugify(name) or "ankdown", taken)
        decks.append(
            ImportedDeck(
                name, stem, tuple(found.items), f"ankdown {folder.name}/", media=found.media
            )
        )
        problems += found.problems
    return ImportResult(tuple(decks), tuple(problems))


def _read_file(path: Path, found: Collector) -> None:
    fields: list[tuple[int, list[str]]] = [(1, [])]
    index = 0
    text = read_text(path)
    dollar_math = _dollar_math(text)
    if dollar_math:
        start = first.start() if (first := _DOLLAR_TEX.search(text)) else 0  # its first '$'
        where = origin(path, text.count("\n", 0, start) + 1)
        column = start - text.rfind("\n", 0, start)
        message = Code.ANKDOWN_DOLLAR_MATH.message()
        found.problems.append(
            warning(where.file, where.line, message, column=column, code=Code.ANKDOWN_DOLLAR_MATH)
        )
    for number, line in numbered_lines(text):
        stripped = line.strip()
        if stripped == "%":
            fields.append((number + 1, []))
        elif stripped in ("---", "%%"):
            _card(path, index, fields, found, dollar_math)
            index += 1
            fields = [(number + 1, [])]
        else:
            fields[-1][1].append(line)
    if any("".join(lines).strip() for _, lines in fields):
        _card(path, index, fields, found, dollar_math)


def _dollar_math(text: str) -> bool:
    """True for a file written for ankdown's ``dollar`` option: TeX in dollars, no ``\\(``."""
    return _DOLLAR_TEX.search(text) is not None and _MATHJAX.search(text) is None


def _card(
    path: Path, index: int, fields: list[tuple[int, list[str]]], found: Collector, dollar: bool
) -> None:
    texts = ["\n".join(lines).strip("\n") for _, lines in fields]
    first_line = fields[0][0] + next((i for i, line in enumerate(fields[0][1]) if line.strip()), 0)
    where = origin(path, first_line)
    if len(texts) < 2:
        if texts[0].strip():
            found.problems.append(where.lost("a card without a '%' line and back"))
        return
    tags = tuple(t for t in re.split(r"[,\s]+", texts[2]) if t) if len(texts) > 2 else ()
    if len(texts) > 3 and any(t.strip() for t in texts[3:]):
        found.problems.append(where.lost("fields after the third (tags)"))
    found.add(where, texts[0], texts[1], dollar_math=dollar, tags=tags, guid=_guid(path, index))


def _guid(path: Path, index: int) -> str:
    """The GUID ankdown gives a card: an MD5 of ``deck/file`` and its index, modulo 2^63."""
    card_id = f"{path.resolve().parent.name}/{path.name}{index}"
    digest = hashlib.md5(card_id.encode("utf-8"), usedforsecurity=False).hexdigest()
    return str(int(digest, 16) % (1 << 63))


def _unique(stem: str, taken: set[str]) -> str:
    candidate, number = stem, 2
    while candidate in taken:
        candidate, number = f"{stem}-{number}", number + 1
    taken.add(candidate)
    return candidate
