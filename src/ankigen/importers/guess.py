"""``--from auto``: which format a source is written in, guessed from what it holds, and said.

A ``.apkg`` is a package; a ``.json`` file, or a folder with ``deck.json``,
a CrowdAnki export. For markdown, each format's own markers are counted in
the files (at most the first ``_SAMPLE`` of them): ``START``/``END`` lines
(obsidian-to-anki), lines starting ``Q:``/``A:``/``C:`` (hashcards), lines
holding only ``%`` (ankdown), ``## `` headings (mdanki). The format with
the most markers wins, in that order on a tie; with none, it is a usage error.
"""

from __future__ import annotations

import re
from pathlib import Path

from ankigen.errors import UsageError
from ankigen.importers.formats import reader
from ankigen.importers.model import ImportResult
from ankigen.importers.text_source import read_text, source_files

_SAMPLE = 50
_MARKERS = (
    ("obsidian-to-anki", re.compile(r"^(?:START|END|STARTI\b.*)$", re.M), "START/END lines"),
    ("hashcards", re.compile(r"^[QAC]:", re.M), "lines starting Q:, A: or C:"),
    ("ankdown", re.compile(r"^[ \t]*%[ \t]*$", re.M), "lines holding only %"),
    ("mdanki", re.compile(r"^## ", re.M), "'## ' headings"),
)


def guess(source: Path) -> tuple[str, str]:
    """The format of ``source`` and why it was chosen."""
    if source.suffix.lower() == ".apkg":
        return "apkg", "a .apkg file"
    if source.suffix.lower() == ".json" or (source / "deck.json").is_file():
        return "crowdanki", "a JSON export"
    texts = [read_text(path) for path in source_files(source)[:_SAMPLE]]
    counts = [
        (sum(len(pattern.findall(text)) for text in texts), name, why)
        for name, pattern, why in _MARKERS
    ]
    best = max(counts, key=lambda count: count[0])
    if best[0] == 0:
        raise UsageError(
            f"{source}: cannot tell its format; name it with --from "
            "(ankdown, hashcards, obsidian-to-anki, mdanki, crowdanki)"
        )
    return best[1], f"{best[0]} {best[2]}"


def import_guessed(source: Path) -> ImportResult:
    """Import ``source`` in the format :func:`guess` finds; the result says which and why."""
    name, why = guess(source)
    result = reader(name)(source)
    return ImportResult(result.decks, result.diagnostics, f"{name} ({why})")
