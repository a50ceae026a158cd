"""The source formats ``ankigen import`` reads, and the one reader of each."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

from ankigen.errors import UsageError
from ankigen.importers.model import ImportResult

Reader = Callable[[Path], ImportResult]

#: ``--from`` values, in the order ``auto`` tries them.
TEXT_FORMATS = ("crowdanki", "hashcards", "obsidian-to-anki", "mdanki", "ankdown")
FORMATS = ("apkg", *TEXT_FORMATS, "auto")


def reader(source_format: str) -> Reader:
    """The reader of ``source_format`` (imported on first use: each is its own module)."""
    if source_format == "apkg":
        from ankigen.importers.anki_package import import_package

        return import_package
    if source_format == "auto":
        from ankigen.importers.guess import import_guessed

        return import_guessed
    from importlib import import_module

    if source_format not in TEXT_FORMATS:
        raise UsageError(f"unknown source format '{source_format}' (known: {', '.join(FORMATS)})")
    module = import_module(f"ankigen.importers.{source_format.replace('-', '_')}")
    return cast(Reader, module.import_source)


def default_format(source: Path) -> str:
    """``apkg`` for a ``.apkg`` file, else ``auto``."""
    return "apkg" if source.suffix.lower() == ".apkg" else "auto"
