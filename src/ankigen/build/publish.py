"""Writing decks: package into the staging folder, publish by rename, stamp.

A deck is first written inside ``OUT/.staging-*`` and renamed into place
only when every deck of the build was written, so a failed build leaves the
decks learners have as they were.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from pathlib import Path

from ankigen.build.build_types import WriteError
from ankigen.build.plan import Plan
from ankigen.build.release import deck_times, settings_files
from ankigen.build.stamp import Stamp, file_hash
from ankigen.build.times import BuildClock
from ankigen.diagnostics import Diagnostic
from ankigen.model import CheckReport, PackagedDeck, RenderedDeck
from ankigen.package import write_deck
from ankigen.package.memo import PackageMemo
from ankigen.render import MediaCache


def write_staged(
    rendered: RenderedDeck,
    stage: Path,
    clock: BuildClock,
    cache: MediaCache | None,
    memo: PackageMemo | None = None,
) -> PackagedDeck:
    """Write one rendered deck into the staging folder, each note with its own time.

    With a ``cache``, its media are deflated once and kept for the next build
    (``package.media_pack``); without one, all are deflated now. ``memo``: what this
    process kept from the last deck it wrote (``package.memo``; None: nothing).
    """
    times = deck_times(rendered, clock, settings_files())
    try:
        return write_deck(rendered, stage, times.deck, times.notes, cache=cache, memo=memo)
    except (OSError, sqlite3.Error) as exc:
        raise WriteError(stage.parent / f"{rendered.deck.stem}.apkg", exc) from exc


def publish(staged: PackagedDeck, out_dir: Path) -> PackagedDeck:
    """Rename a staged deck into place (atomic: same file system)."""
    target = out_dir / staged.path.name
    try:
        os.replace(staged.path, target)
    except OSError as exc:
        raise WriteError(target, exc) from exc
    return dataclasses.replace(staged, path=target)


def stamp_of(
    plan: Plan,
    rendered: RenderedDeck,
    written: PackagedDeck,
    report: CheckReport,
    diagnostics: list[Diagnostic],
) -> Stamp:
    """The stamp that lets the next build skip this deck while its inputs are unchanged."""
    # Every warning about this file, from any stage, is replayed while it is current.
    shown = rendered.deck.display_path
    warnings = tuple(d for d in diagnostics if d.file == shown and not d.is_error)
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
