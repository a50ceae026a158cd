"""The whole pipeline, top to bottom: parse -> check -> render -> package.

Each stage takes and returns plain data; this module only wires them
together and decides, from the diagnostics, whether decks are written.
Render is started before check (its formula images draw in worker processes
while this one checks) and finished after it.
Around it: ``plan.py`` (which decks are up to date), ``reuse.py`` (what an
edit reuses), ``publish.py`` (staged writing), ``build_types.py`` (options
and results).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from pathlib import Path

from ankigen.build.build_cache import BuildCaches, build_caches
from ankigen.build.build_types import BuildOptions, BuildResult, BuildSummary, WriteError
from ankigen.build.discover import discover
from ankigen.build.guards import key_collisions, outside_root
from ankigen.build.memory import give_back_freed, map_big_allocations
from ankigen.build.partial import Partial, leave_out_broken
from ankigen.build.paths import display_path
from ankigen.build.plan import Plan, deck_keys, plan_deck
from ankigen.build.pool import BuildPool
from ankigen.build.publish import publish, stamp_of, write_staged
from ankigen.build.release import (
    compare_staged,
    keep_released_guids,
    settings_files,
    staging,
)
from ankigen.build.reuse import check_source, parse_source
from ankigen.build.stamp import save_stamp
from ankigen.build.times import BuildClock
from ankigen.build.unread import unread_files
from ankigen.check import figure_literals
from ankigen.commands.diff import DeckDiff
from ankigen.diagnostics import Diagnostic, sort_diagnostics, strictly
from ankigen.model import CheckReport, Deck, MathMode, PackagedDeck, RenderedDeck
from ankigen.parse.macro_expansion import project_macros
from ankigen.render import (
    MediaCache,
    Progress,
    Rendering,
    RenderReport,
    RenderSettings,
    start_rendering,
)

__all__ = ["BuildOptions", "BuildResult", "BuildSummary", "WriteError", "run"]


def run(options: BuildOptions, progress: Progress | None = None) -> BuildResult:
    """Build (or, with ``write=False``, only check) every content file."""
    map_big_allocations()  # so that what a stage frees can be given back whole
    pool = BuildPool.for_jobs(options.jobs, options.pool_tuning)
    with build_caches(options) as caches, pool or nullcontext():
        return caches.outliving(_run(options, caches, pool, progress))


def _run(
    options: BuildOptions,
    caches: BuildCaches,
    pool: BuildPool | None,
    progress: Progress | None,
) -> BuildResult:
    """The pipeline, with the caches it reads and fills (``build_cache``: none, or OUT/.cache)
    and the process pool that draws formula images (None: ``-j 1``)."""
    reused = caches.reused  # None: `check` or --no-cache, which reuse nothing
    clock = BuildClock(Path.cwd())
    plans, diagnostics = _plan(options, reused, clock)
    todo = {plan.source.path: plan for plan in plans if plan.stamp is None}

    decks = _parse(todo.values(), options, reused, pool, diagnostics)
    # The files' text, their tokens and the section records are freed: given back.
    give_back_freed()
    diagnostics.extend(key_collisions(deck_keys(decks, plans)))
    # Formula images are drawn by worker processes from here on, while this one checks.
    with _start_render(decks, options, caches, pool) as started:
        reports = {deck.path: check_source(deck, options.limits, reused) for deck in decks}
        diagnostics.extend(d for report in reports.values() for d in report.diagnostics)
        diagnostics.extend(d for deck in decks for d in figure_literals(deck, options.figures_dir))
        rendering = _render(started, decks, reports, progress)
    diagnostics.extend(rendering.diagnostics)
    give_back_freed()  # the note cache's records, and what rendering made and let go
    # With --strict every warning of every stage is an error, so it stops the build too.
    diagnostics = strictly(diagnostics, options.strict)
    # What can be made without the broken items: written with --skip-broken, always previewed.
    partial = leave_out_broken(rendering.decks, diagnostics)
    if options.skip_broken:
        diagnostics = list(partial.diagnostics)

    written, diffs = _package(partial, todo, reports, options, clock, reused, diagnostics)
    summary = _summary(plans, decks, reports, written, rendering)
    return BuildResult(
        tuple(sort_diagnostics(diagnostics)),
        tuple(written),
        summary,
        tuple(diffs),
        partial.kept,
        partial.left_out,
        partial.items_left_out,
    )


def _plan(
    options: BuildOptions, cache: MediaCache | None, clock: BuildClock
) -> tuple[list[Plan], list[Diagnostic]]:
    """Every content file to read, and whether its deck is up to date; problems finding them."""
    found = discover(options.paths)
    escaped = [outside_root(source.path, source.root) for source in found]
    diagnostics: list[Diagnostic] = [d for d in escaped if d is not None]
    diagnostics.extend(unread_files(options.paths, (source.path for source in found)))
    sources = [source for source, refused in zip(found, escaped, strict=True) if refused is None]
    if options.write:  # `check` writes no deck: no times to work out
        clock.learn([*(s.path for s in sources), *settings_files()])
    plans = [plan_deck(source, options, cache, clock) for source in sources]
    # An up-to-date deck is not parsed again: its warnings are replayed from its stamp.
    diagnostics.extend(w for p in plans if p.stamp is not None for w in p.stamp.replayed_warnings())
    return plans, diagnostics


def _parse(
    plans: Iterable[Plan],
    options: BuildOptions,
    reused: MediaCache | None,
    pool: BuildPool | None,
    diagnostics: list[Diagnostic],
) -> list[Deck]:
    """Parse every deck that must be built (``--math`` applied); its problems to ``diagnostics``."""
    decks: list[Deck] = []
    plans = list(plans)
    macros_file = options.macros_file if plans else None
    macros, problems = project_macros(macros_file, display_path(macros_file or Path(".")))
    diagnostics.extend(problems)
    for plan in plans:
        parsed = parse_source(
            plan.source,
            options.default_math,
            reused,
            default_claims=options.default_claims,
            macros=macros,
            pool=pool,
        )
        diagnostics.extend(parsed.diagnostics)
        if parsed.deck is not None:
            decks.append(_with_math(parsed.deck, options.math))
    return decks


def _start_render(
    decks: list[Deck], options: BuildOptions, caches: BuildCaches, pool: BuildPool | None
) -> Rendering:
    """Check every parsed deck's formulas and start drawing their missing images (``-j``)."""
    return start_rendering(
        decks,
        RenderSettings(
            options.figures_dir,
            caches.media.folder,
            options.figure_format,
            options.limits,
            reuse_notes=caches.reused is not None,
            pool=pool,
            project=options.project,
            cache_tuning=options.cache_tuning,
            decoded=options.decoded,
        ),
    )


def _render(
    started: Rendering,
    decks: list[Deck],
    reports: dict[Path, CheckReport],
    progress: Progress | None,
) -> RenderReport:
    """Render every parsed deck, with the formulas its checks compiled for its figures."""
    return started.finish(
        formulas={path: report.formulas for path, report in reports.items()},
        formulas_source={deck.path: "\n".join(b.text for b in deck.formulas) for deck in decks},
        progress=progress,
    )


def _package(
    partial: Partial,
    todo: dict[Path, Plan],
    reports: dict[Path, CheckReport],
    options: BuildOptions,
    clock: BuildClock,
    cache: MediaCache | None,
    diagnostics: list[Diagnostic],
) -> tuple[list[PackagedDeck], list[DeckDiff]]:
    """Write every deck, or none: a build with any error leaves every deck on disk as it was.

    With ``--skip-broken`` (format §19) every deck that can be made without its broken
    items is written, unless an error belongs to no deck (``commands.partial``).
    """
    if options.skip_broken:
        blocking = partial.blocked
        unstamped = partial.shortened  # no stamp: the next build must report them again
    else:
        blocking, unstamped = any(d.is_error for d in diagnostics), frozenset()
    if not options.write or blocking:
        return [], []
    written: list[PackagedDeck] = []
    diffs: list[DeckDiff] = []
    with staging(options.out_dir) as stage:
        rendered: Sequence[RenderedDeck] = partial.kept
        clock.learn(path for r in rendered for path in r.sources)
        if options.against is not None:
            rendered = keep_released_guids(rendered, options.against)
        # A warm process's memo only beside the cache it stands in for (--no-cache: none).
        memo = options.package_memo if cache is not None else None
        staged = [(r, write_staged(r, stage, clock, cache, memo)) for r in rendered]
        if options.against is not None:
            diffs, problems = compare_staged(staged, options.against)
            problems = strictly(problems, options.strict)
            diagnostics.extend(problems)
            if any(d.is_error for d in problems):
                return [], diffs
        for deck, deck_file in staged:
            path = deck.deck.path
            published = publish(deck_file, options.out_dir)
            if cache is not None and path not in unstamped:
                stamp = stamp_of(todo[path], deck, published, reports[path], diagnostics)
                save_stamp(cache, deck.deck.stem, stamp)
            written.append(published)
    return written, diffs


def _summary(
    plans: list[Plan],
    decks: list[Deck],
    reports: dict[Path, CheckReport],
    written: list[PackagedDeck],
    rendering: RenderReport,
) -> BuildSummary:
    """The counts of the closing line: decks built now and decks already up to date."""
    current = [plan.stamp for plan in plans if plan.stamp is not None]
    return BuildSummary(
        decks=len(plans),
        up_to_date=len(current),
        items=sum(len(d.items) for d in decks) + sum(p.items for p in current),
        checks=sum(r.checks for r in reports.values()) + sum(p.checks for p in current),
        failed_checks=sum(r.failed for r in reports.values()),
        quotes_missing=sum(r.quotes_missing for r in reports.values()),
        unverified_claims=sum(r.unverified for r in reports.values()),
        notes=sum(p.notes for p in written) + sum(p.notes for p in current),
        cards=sum(p.cards for p in written) + sum(p.cards for p in current),
        media=sum(p.media for p in written) + sum(p.media for p in current),
        images_drawn=rendering.rendered,
        # An up-to-date deck's images all come from earlier builds.
        images_cached=rendering.cached + sum(p.media for p in current),
    )


def _with_math(deck: Deck, override: MathMode | None) -> Deck:
    """The command line's ``--math`` wins over the file's front matter."""
    return deck if override is None else dataclasses.replace(deck, math=override)
