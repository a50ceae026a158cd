"""``ankigen import``: read another tool's source or an ``.apkg``, write content files.

The pipeline: read the source into decks (``ankigen.importers``), write one
content file per deck into the output folder with the media its items show,
then parse each written file as a build would, so that what the import
wrote and could not carry over is reported together. Nothing is
overwritten: an existing content file is a usage error, an existing media
file with other bytes is kept and reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Code, Diagnostic, sort_diagnostics, warning
from ankigen.errors import UsageError
from ankigen.importers.formats import default_format, reader
from ankigen.importers.model import ImportedDeck
from ankigen.importers.package_media import is_image_name
from ankigen.importers.writer import content_file
from ankigen.model import ClaimLevel
from ankigen.parse import parse_file


@dataclass(frozen=True)
class ImportReport:
    """What an import wrote, what it guessed, and every problem (import and parse)."""

    files: tuple[Path, ...]
    media: tuple[Path, ...]
    items: int
    notes: int
    diagnostics: tuple[Diagnostic, ...]
    guessed: str | None


def run_import(source: Path, out: Path, source_format: str | None = None) -> ImportReport:
    """Import ``source`` (``source_format``: a ``--from`` value; None: by its name) into ``out``."""
    if not source.exists():
        raise UsageError(f"{source}: no such file or folder")
    result = reader(source_format or default_format(source))(source)
    targets = [out / f"{deck.stem}.md" for deck in result.decks]
    existing = [str(t) for t in targets if t.exists() or t.is_symlink()]
    if existing:
        raise UsageError(
            f"{', '.join(existing)} already exists: import into another --out folder, "
            "or move the file away first"
        )
    out.mkdir(parents=True, exist_ok=True)
    problems = list(result.diagnostics)
    media: list[Path] = []
    notes = 0
    for deck, target in zip(result.decks, targets, strict=True):
        text, tag_problems = content_file(deck)
        problems += tag_problems
        _create(target, text.encode("utf-8"))
        media += _write_media(deck, out, problems)
        parsed = parse_file(target, out, display_path(target), default_claims=ClaimLevel.OFF)
        problems += parsed.diagnostics
        read = len(parsed.deck.items) if parsed.deck else 0
        notes += read
        if read != len(deck.items):
            problems.append(_reads_back_otherwise(target, len(deck.items), read))
    return ImportReport(
        tuple(targets),
        tuple(media),
        sum(len(deck.items) for deck in result.decks),
        notes,
        tuple(sort_diagnostics(problems)),
        result.guessed,
    )


def _reads_back_otherwise(target: Path, items: int, read: int) -> Diagnostic:
    """AG804: the file written parses as another number of items than were imported."""
    what = "more: some text reads as items" if read > items else "fewer: some items are lost"
    message = Code.IMPORT_READS_BACK_OTHERWISE.message(
        items=items, s="" if items == 1 else "s", read=read, what=what
    )
    return warning(
        display_path(target), 1, message, code=Code.IMPORT_READS_BACK_OTHERWISE, column=1
    )


def _write_media(deck: ImportedDeck, out: Path, problems: list[Diagnostic]) -> list[Path]:
    written = []
    for name, data in deck.media:
        # The readers give only images' plain names: nothing outside `out`, no `.md`.
        if not is_image_name(name):
            raise ValueError(f"media name {name!r} is not an image's plain file name")
        target = out / name
        if target.is_symlink() or target.exists():
            if target.is_symlink() or target.read_bytes() != data:
                message = Code.MEDIA_NAME_TAKEN.message(name=name)
                problems.append(
                    warning(display_path(target), 1, message, column=1, code=Code.MEDIA_NAME_TAKEN)
                )
            continue
        _create(target, data)
        written.append(target)
    return written


def _create(target: Path, data: bytes) -> None:
    """Write a new file; never through a symbolic link, never over a file (O_EXCL)."""
    with target.open("xb") as stream:
        stream.write(data)
