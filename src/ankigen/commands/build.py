"""The whole pipeline, top to bottom: parse -> check -> render -> package.

Each stage takes and returns plain data; this module only wires them
together and decides, from the diagnostics, whether decks are written.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.buildtime import BuildClock
from ankigen.check import CheckReport
from ankigen.commands.diff import DeckDiff
from ankigen.commands.discover import ContentFile, discover
from ankigen.commands.guards import DeckKey, key_collisions, outside_root
from ankigen.commands.release import compare_staged, deck_times, settings_files, staging
from ankigen.commands.reuse import check_source, parse_source
from ankigen.commands.unread import unread_files
from ankigen.diagnostics import Diagnostic, sort_diagnostics, strictly
from ankigen.errors import AnkigenError
from ankigen.gcpause import no_cyclic_gc
from ankigen.model import Deck, MathMode
from ankigen.package import PackagedDeck, write_deck
from ankigen.parse import parse_file
from ankigen.paths import display_path
from ankigen.render import MediaCache, Progress, RenderedDeck, RenderSettings, render_decks
from ankigen.stamp import Stamp, file_hash, input_hash, is_up_to_date, load_stamp, save_stamp
from ankigen.timelimit import TimeLimits


@dataclass(frozen=True)
class BuildOptions:
    """What to build and where: content paths, folders, and overrides."""

    paths: tuple[Path, ...]
    out_dir: Path
    figures_dir: Path
    math: MathMode | None = None
    figure_format: str = "svg"
    #: The math mode of files whose front matter names none (the project's default).
    default_math: MathMode = MathMode.IMAGE
    write: bool = True
    strict: bool = False
    #: The release learners have (an .apkg, or a folder of them): report what this one changes.
    against: Path | None = None
    #: Seconds checks, formula images and figures may take ([tool.ankigen] *-time-limit).
    limits: TimeLimits = field(default_factory=TimeLimits)


@dataclass(frozen=True)
class BuildSummary:
    """Counts for the closing summary line."""

    decks: int = 0
    up_to_date: int = 0
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
    #: With ``--against``: what importing each written deck over its old release does.
    diffs: tuple[DeckDiff, ...] = ()
    #: The decks rendered in this run (not those already up to date), for the preview.
    rendered: tuple[RenderedDeck, ...] = ()

    @property
    def failed(self) -> bool:
        """True when any error was found (then nothing was written)."""
        return any(d.is_error for d in self.diagnostics)


class WriteError(AnkigenError):
    """A deck could not be written (disk full, folder not writable): not a content error.

    The deck's previous file, if any, is left as it was.
    """

    def __init__(self, target: Path, cause: OSError | sqlite3.Error) -> None:
        # sqlite reports a full disk or file size limit as "database or disk is full".
        reason = (cause.strerror if isinstance(cause, OSError) else None) or str(cause)
        super().__init__(f"cannot write {target}: {reason}")
        self.target = target


@no_cyclic_gc()
def run(options: BuildOptions, progress: Progress | None = None) -> BuildResult:
    """Build (or, with ``write=False``, only check) every content file, with no cyclic GC."""
    cache = MediaCache(options.out_dir / ".cache")
    clock = BuildClock(Path.cwd())
    found = discover(options.paths)
    escaped = [outside_root(source.path, source.root) for source in found]
    diagnostics: list[Diagnostic] = [d for d in escaped if d is not None]
    diagnostics.extend(unread_files(options.paths, (source.path for source in found)))
    sources = [source for source, refused in zip(found, escaped, strict=True) if refused is None]
    if options.write:  # `check` writes no deck: no times to work out
        clock.learn([*(s.path for s in sources), *settings_files()])
    plans = [_plan(source, options, cache, clock) for source in sources]
    current = [plan.stamp for plan in plans if plan.stamp is not None]
    todo = {plan.source.path: plan for plan in plans if plan.stamp is None}
    diagnostics.extend(w for stamp in current for w in stamp.replayed_warnings())

    reused = cache if options.write else None  # `check` neither reads nor fills the caches
    decks: list[Deck] = []
    for plan in todo.values():
        parsed = parse_source(plan.source, options.default_math, reused)
        diagnostics.extend(parsed.diagnostics)
        if parsed.deck is not None:
            decks.append(_with_math(parsed.deck, options.math))
    diagnostics.extend(key_collisions(_deck_keys(decks, plans)))

    reports = {deck.path: check_source(deck, options.limits, reused) for deck in decks}
    for report in reports.values():
        diagnostics.extend(report.diagnostics)

    rendering = render_decks(
        decks,
        formulas={path: report.formulas for path, report in reports.items()},
        formulas_source={deck.path: "\n".join(b.text for b in deck.formulas) for deck in decks},
        settings=RenderSettings(
            options.figures_dir, cache.folder, options.figure_format, options.limits
        ),
        progress=progress,
    )
    diagnostics.extend(rendering.diagnostics)
    # With --strict every warning of every stage is an error, so it stops the build too.
    diagnostics = strictly(diagnostics, options.strict)

    # A build with any error writes nothing: every good deck on disk stays.
    written: list[PackagedDeck] = []
    diffs: list[DeckDiff] = []
    if options.write and not any(d.is_error for d in diagnostics):
        with staging(options.out_dir) as stage:
            clock.learn(path for r in rendering.decks for path in r.sources)
            staged = [(r, _write(r, stage, clock, cache)) for r in rendering.decks]
            if options.against is not None:
                diffs, problems = compare_staged(staged, options.against)
                diagnostics.extend(strictly(problems, options.strict))
            if not any(d.is_error for d in diagnostics):
                for rendered, deck_file in staged:
                    plan, report = todo[rendered.deck.path], reports[rendered.deck.path]
                    published = _publish(deck_file, options.out_dir)
                    stamp = _stamp_of(plan, rendered, published, report, diagnostics)
                    save_stamp(cache, rendered.deck.stem, stamp)
                    written.append(published)

    summary = BuildSummary(
        decks=len(plans),
        up_to_date=len(current),
        items=sum(len(d.items) for d in decks) + sum(p.items for p in current),
        checks=sum(r.checks for r in reports.values()) + sum(p.checks for p in current),
        failed_checks=sum(r.failed for r in reports.values()),
        notes=sum(p.notes for p in written) + sum(p.notes for p in current),
        cards=sum(p.cards for p in written) + sum(p.cards for p in current),
        media=sum(p.media for p in written) + sum(p.media for p in current),
        images_drawn=rendering.rendered,
        # An up-to-date deck's images all come from earlier builds.
        images_cached=rendering.cached + sum(p.media for p in current),
    )
    return BuildResult(
        tuple(sort_diagnostics(diagnostics)), tuple(written), summary, tuple(diffs), rendering.decks
    )


@dataclass(frozen=True)
class _Plan:
    """A content file, the inputs hash of its deck, and its stamp if the deck is current."""

    source: ContentFile
    inputs: str
    build_time: float
    stamp: Stamp | None


def _plan(
    source: ContentFile, options: BuildOptions, cache: MediaCache, clock: BuildClock
) -> _Plan:
    """Decide whether a content file's deck must be built, or is already up to date."""
    if not options.write:
        return _Plan(source, "", 0.0, None)  # `check` writes no deck: nothing to compare
    stamp = load_stamp(cache, source.path.stem)
    # The figures and images the last build used count too: an uncommitted one has its own time.
    shown = [Path(p) for p in stamp.sources] if stamp else []
    when = clock.time_of([source.path, *settings_files(), *shown])
    settings = "|".join(
        str(part)
        for part in (
            options.math,
            options.default_math,
            options.figure_format,
            options.figures_dir.resolve(),
            source.root.resolve(),
            options.strict,
        )
    )
    inputs = input_hash(source.path, settings, when)
    deck_file = options.out_dir / f"{source.path.stem}.apkg"
    # --against compares the deck it writes with the old release: always build it.
    fresh = options.against is None and is_up_to_date(stamp, inputs, deck_file)
    return _Plan(source, inputs, when, stamp if fresh else None)


def _write(
    rendered: RenderedDeck, stage: Path, clock: BuildClock, cache: MediaCache
) -> PackagedDeck:
    times = deck_times(rendered, clock, settings_files())
    try:
        return write_deck(rendered, stage, times.deck, times.notes, cache=cache)
    except (OSError, sqlite3.Error) as exc:
        raise WriteError(stage.parent / f"{rendered.deck.stem}.apkg", exc) from exc


def _publish(staged: PackagedDeck, out_dir: Path) -> PackagedDeck:
    """Rename a staged deck into place (atomic: same file system)."""
    target = out_dir / staged.path.name
    try:
        os.replace(staged.path, target)
    except OSError as exc:
        raise WriteError(target, exc) from exc
    return dataclasses.replace(staged, path=target)


def _stamp_of(
    plan: _Plan,
    rendered: RenderedDeck,
    written: PackagedDeck,
    report: CheckReport,
    diagnostics: list[Diagnostic],
) -> Stamp:
    # Every warning about this file, from any stage, is replayed while it is current.
    shown = rendered.deck.display_path
    warnings = [d.to_record() for d in diagnostics if d.file == shown and not d.is_error]
    return Stamp(
        inputs=plan.inputs,
        sources={str(path): file_hash(path) for path in rendered.sources},
        output=file_hash(written.path),
        warnings=warnings,
        items=len(rendered.deck.items),
        checks=report.checks,
        notes=written.notes,
        cards=written.cards,
        media=written.media,
        key=rendered.deck.key,
        key_line=rendered.deck.key_line,
    )


def _deck_keys(decks: list[Deck], plans: list[_Plan]) -> list[DeckKey]:
    """The key of every deck of the build, up-to-date ones (not parsed above) included."""
    keys = [DeckKey(deck.display_path, deck.key, deck.key_line) for deck in decks]
    for plan in plans:
        if plan.stamp is None:
            continue
        shown = display_path(plan.source.path)
        if plan.stamp.key:
            keys.append(DeckKey(shown, plan.stamp.key, plan.stamp.key_line))
            continue
        deck = parse_file(plan.source.path, plan.source.root, shown).deck  # an older stamp
        if deck is not None:
            keys.append(DeckKey(shown, deck.key, deck.key_line))
    return keys


def _with_math(deck: Deck, override: MathMode | None) -> Deck:
    """The command line's ``--math`` wins over the file's front matter."""
    return deck if override is None else dataclasses.replace(deck, math=override)
