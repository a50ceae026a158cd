"""The whole pipeline, top to bottom: parse -> check -> render -> package.

Each stage takes and returns plain data; this module only wires them
together and decides, from the diagnostics, whether decks are written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.buildtime import build_time
from ankigen.check import check_deck
from ankigen.diagnostics import Diagnostic, Severity
from ankigen.errors import AnkigenError, UsageError
from ankigen.model import Deck, MathMode
from ankigen.package import PackagedDeck, write_deck
from ankigen.parse import parse_file
from ankigen.render import Progress, RenderSettings, render_decks


@dataclass(frozen=True)
class BuildOptions:
    """What to build and where: content paths, folders, and overrides."""

    paths: tuple[Path, ...]
    out_dir: Path
    figures_dir: Path
    math: MathMode | None = None
    figure_format: str = "svg"
    write: bool = True
    strict: bool = False


@dataclass(frozen=True)
class BuildSummary:
    """Counts for the closing summary line."""

    decks: int = 0
    items: int = 0
    checks: int = 0
    failed_checks: int = 0
    notes: int = 0
    cards: int = 0
    media: int = 0
    images_drawn: int = 0
    images_cached: int = 0


@dataclass(frozen=True)
class BuildResult:
    """Everything a run found and wrote."""

    diagnostics: tuple[Diagnostic, ...]
    written: tuple[PackagedDeck, ...]
    summary: BuildSummary

    @property
    def failed(self) -> bool:
        """True when any error was found (then nothing was written)."""
        return any(d.is_error for d in self.diagnostics)


class WriteError(AnkigenError):
    """A deck could not be written (disk full, folder not writable): not a content error.

    The deck's previous file, if any, is left as it was.
    """

    def __init__(self, target: Path, cause: OSError) -> None:
        reason = cause.strerror or str(cause)
        super().__init__(f"cannot write {target}: {reason}")
        self.target = target


@dataclass(frozen=True)
class ContentFile:
    """A content file and the content root it may reference images in."""

    path: Path
    root: Path


def run(options: BuildOptions, progress: Progress | None = None) -> BuildResult:
    """Build (or, with ``write=False``, only check) every content file."""
    files = discover(options.paths)
    diagnostics: list[Diagnostic] = []

    decks: list[Deck] = []
    for source in files:
        parsed = parse_file(source.path, source.root, display_path(source.path))
        diagnostics.extend(parsed.diagnostics)
        if parsed.deck is not None:
            decks.append(_with_math(parsed.deck, options.math))

    reports = {deck.path: check_deck(deck) for deck in decks}
    for report in reports.values():
        diagnostics.extend(_strict(report.diagnostics, options.strict))

    rendering = render_decks(
        decks,
        formulas={path: report.formulas for path, report in reports.items()},
        formulas_source={deck.path: "\n".join(b.text for b in deck.formulas) for deck in decks},
        settings=RenderSettings(options.figures_dir, options.out_dir / ".cache",
                                options.figure_format),
        progress=progress,
    )
    diagnostics.extend(rendering.diagnostics)

    # A build with any error writes nothing: every good deck on disk stays.
    failed = any(d.is_error for d in diagnostics)
    written: list[PackagedDeck] = []
    if options.write and not failed:
        for r in rendering.decks:
            try:
                written.append(write_deck(r, options.out_dir, build_time(r.deck.path)))
            except OSError as exc:
                raise WriteError(options.out_dir / f"{r.deck.stem}.apkg", exc) from exc

    summary = BuildSummary(
        decks=len(decks),
        items=sum(len(d.items) for d in decks),
        checks=sum(r.checks for r in reports.values()),
        failed_checks=sum(r.failed for r in reports.values()),
        notes=sum(p.notes for p in written),
        cards=sum(p.cards for p in written),
        media=sum(p.media for p in written),
        images_drawn=rendering.rendered,
        images_cached=rendering.cached,
    )
    ordered = sorted(diagnostics, key=lambda d: (d.file, d.line))
    return BuildResult(tuple(dict.fromkeys(ordered)), tuple(written), summary)


def discover(paths: Sequence[Path]) -> list[ContentFile]:
    """Expand files and folders into content files, each with its content root."""
    files: list[ContentFile] = []
    for path in paths:
        if path.is_dir():
            files.extend(ContentFile(p, path) for p in sorted(path.glob("*.md")) if p.is_file())
        elif path.is_file():
            files.append(ContentFile(path, path.parent))
        else:
            raise UsageError(f"no such file or folder: {path}")
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise UsageError(f"no content files (*.md) found in {shown}")
    stems: dict[str, Path] = {}
    for source in files:
        clash = stems.setdefault(source.path.stem, source.path)
        if clash != source.path:
            raise UsageError(f"{clash} and {source.path} would both build "
                             f"{source.path.stem}.apkg; rename one of them")
    return files


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _with_math(deck: Deck, override: MathMode | None) -> Deck:
    """The command line's ``--math`` wins over the file's front matter."""
    return deck if override is None else dataclasses.replace(deck, math=override)


def _strict(diagnostics: Sequence[Diagnostic], strict: bool) -> list[Diagnostic]:
    """With ``--strict``, warnings count as errors."""
    if not strict:
        return list(diagnostics)
    return [dataclasses.replace(d, severity=Severity.ERROR) for d in diagnostics]
