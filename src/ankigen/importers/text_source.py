"""What the readers of other tools' text files share: finding the files, items from markdown."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Diagnostic
from ankigen.errors import UsageError
from ankigen.importers.markdown_source import adapt, one_paragraph
from ankigen.importers.model import ImportedItem, Origin
from ankigen.importers.source_images import SourceImages
from ankigen.syntax import cloze as cloze_syntax

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
    """Items, warnings and copied images as a reader finds them in the files below ``root``.

    ``file`` is the source file being read (its images are found from its folder).
    """

    root: Path
    file: Path | None = None
    items: list[ImportedItem] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    images: SourceImages | None = None

    @property
    def media(self) -> tuple[tuple[str, bytes], ...]:
        """The image files the items show: (file name, bytes)."""
        return tuple(sorted(self.images.files.items())) if self.images else ()

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
        lost = [*front.changed, *paragraph.changed, *back.changed]
        question_text, answer_text = paragraph.markdown, back.markdown
        if self.file is not None:
            self.images = self.images or SourceImages(self.root)
            question_text = self.images.rewrite(question_text, self.file, lost)
            answer_text = self.images.rewrite(answer_text, self.file, lost)
        if not cloze and cloze_syntax.has_cloze(question_text):
            lost.append("its kind: cloze markers in its question make it a cloze item")
        for what in lost:
            self.problems.append(origin.lost(what))
        if not question_text.strip():
            self.problems.append(origin.lost("an item with an empty question"))
            return
        if not cloze and not answer_text.strip():
            self.problems.append(origin.lost("an item with an empty answer"))
            return
        self.items.append(ImportedItem(question_text, answer_text, origin, cloze, tags, guid))


def source_root(source: Path) -> Path:
    """The folder a source's images must stay in: the folder named, or the named file's."""
    return source if source.is_dir() else source.parent


def origin(path: Path, line: int) -> Origin:
    """The place of an item: the file as the user named it, and its line."""
    return Origin(display_path(path), line)


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` from 1."""
    return enumerate(text.split("\n"), start=1)
