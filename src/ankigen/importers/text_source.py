"""What the readers of other tools' text files share: finding the files, items from markdown."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.diagnostics import Diagnostic
from ankigen.errors import UsageError
from ankigen.importers.markdown_source import adapt, one_paragraph
from ankigen.importers.model import ImportedItem, Origin
from ankigen.paths import display_path

MAX_FILES = 10_000
MAX_BYTES = 64 * 1024 * 1024


def source_files(source: Path, suffixes: tuple[str, ...] = (".md", ".markdown")) -> list[Path]:
    """``source``, or the files below it with one of ``suffixes`` (sorted; hidden ones skipped)."""
    if source.is_file():
        return [source]
    found = sorted(
        path
        for path in source.rglob("*")
        if path.is_file()
        and path.suffix.lower() in suffixes
        and not any(part.startswith(".") for part in path.relative_to(source).parts)
    )
    if len(found) > MAX_FILES:
        raise UsageError(f"{source}: over {MAX_FILES} files to import; import one folder at a time")
    return found


def read_text(path: Path) -> str:
    """A source file's text (UTF-8); a usage error names a file that is too big or not text."""
    if path.stat().st_size > MAX_BYTES:
        raise UsageError(f"{path}: over {MAX_BYTES // 2**20} MB, not a question bank to import")
    try:
        return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text ({exc.reason}); save it as UTF-8") from None


@dataclass
class Collector:
    """Items and warnings as a reader finds them."""

    items: list[ImportedItem] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        origin: Origin,
        question: str,
        answer: str,
        *,
        dollar_math: bool,
        cloze: bool = False,
        tags: tuple[str, ...] = (),
        guid: str | None = None,
    ) -> None:
        """Add an item from its markdown question and answer (an empty one is only reported)."""
        front = adapt(question, dollar_math=dollar_math)
        back = adapt(answer, dollar_math=dollar_math, answer=True)
        paragraph = one_paragraph(front.markdown)
        for what in (*front.changed, *paragraph.changed, *back.changed):
            self.problems.append(origin.lost(what))
        if not paragraph.markdown.strip():
            self.problems.append(origin.lost("an item with an empty question"))
            return
        if not cloze and not back.markdown.strip():
            self.problems.append(origin.lost("an item with an empty answer"))
            return
        self.items.append(
            ImportedItem(paragraph.markdown, back.markdown, origin, cloze, tags, guid)
        )


def origin(path: Path, line: int) -> Origin:
    """The place of an item: the file as the user named it, and its line."""
    return Origin(display_path(path), line)


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` from 1."""
    return enumerate(text.split("\n"), start=1)
