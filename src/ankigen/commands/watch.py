"""``ankigen watch``: rebuild the decks and their preview whenever an input changes.

Watches the content folders (content files and the images inside them) and
the figures folder with ``watchfiles`` (inotify and friends, not polling).
Each rebuild is handed to a callback; problems of one rebuild, even usage
problems such as a deleted folder, never end the loop. Nothing here prints.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path

from ankigen.build.discover import discover
from ankigen.cache import Decoded
from ankigen.commands.build import BuildOptions, BuildResult, run
from ankigen.commands.preview import PreviewPage, ShownMedia, preview, write_pages
from ankigen.errors import AnkigenError
from ankigen.package.memo import PackageMemo

_WAKE_UP_MS = 300
#: After a change, how long the watcher waits for more before it hands the batch over.
#: An editor's save (write, rename, chmod) lands within a millisecond, so 10 ms still
#: makes one batch of it; watchfiles' default (50 ms) was a fifth of the 1k-item budget.
#: Saves made while a build runs are handed over together as the next batch.
_QUIET_MS = 10


@dataclass(frozen=True)
class Rebuild:
    """One round: what changed, what the build found, the pages written, or why it stopped.

    ``problem`` is set when the round could not run at all (no content file
    left, an unwritable folder); ``build`` is then None.
    """

    changed: tuple[Path, ...]
    build: BuildResult | None
    pages: tuple[PreviewPage, ...] = ()
    problem: str | None = None


@dataclass(frozen=True)
class WatchState:
    """What the watch process keeps in memory from one round to the next.

    The build's own caches (sections, proven checks, notes, media) live in
    ``OUT/.cache``, and the values decoded from them stay in ``decoded``, so a
    round decodes only what the last one did not hold; the preview keeps each
    section's outline and each note's cards by their text (``preview.outline``,
    ``preview.deck``), and this, the media files it already left in the
    preview folder, and what the package step keeps from each deck it wrote
    (``package.memo``).
    """

    shown: ShownMedia = field(default_factory=ShownMedia)
    decoded: Decoded = field(default_factory=Decoded)
    package: PackageMemo = field(default_factory=PackageMemo)


def watched_folders(options: BuildOptions) -> tuple[Path, ...]:
    """The folders whose changes matter: each content folder (or file's folder), figures."""
    folders = [path if path.is_dir() else path.parent for path in options.paths]
    if options.figures_dir.is_dir():
        folders.append(options.figures_dir)
    unique: dict[Path, None] = {}
    for folder in folders:
        unique.setdefault(folder.resolve(), None)
    return tuple(unique)


def rebuild(
    options: BuildOptions,
    preview_dir: Path,
    changed: tuple[Path, ...] = (),
    state: WatchState | None = None,
) -> Rebuild:
    """Build the decks that changed, then refresh their pages (and any page missing).

    ``state``: what the earlier rounds of this process left (None: nothing).
    """
    shown = state.shown if state is not None else None
    if state is not None and options.cache:
        # Only beside the cache they stand in for: a --no-cache round's store is a scratch
        # folder's, gone after the round, and none of it may be kept.
        options = dataclasses.replace(options, decoded=state.decoded, package_memo=state.package)
    try:
        result = run(options)
        # The decks are all or nothing; their pages show every card that can be made
        # and each broken item in its place (format §19).
        pages = write_pages(
            result.rendered, preview_dir, result.diagnostics, result.left_out, shown
        )
        return Rebuild(changed, result, pages + _missing_pages(options, preview_dir, result))
    except (AnkigenError, OSError) as exc:
        return Rebuild(changed, None, problem=str(exc))


def watch(
    options: BuildOptions,
    preview_dir: Path,
    report: Callable[[Rebuild], None],
    stop: threading.Event | None = None,
) -> None:
    """Rebuild once, then after every batch of changes, until ``stop`` is set or Ctrl-C.

    Ctrl-C raises ``KeyboardInterrupt`` to the caller.
    """
    # Imported here: watchfiles (and asyncio, anyio) cost every other command
    # about 7 MB and 70 ms of start-up.
    import watchfiles

    from ankigen.build.watch_filter import InputsFilter

    changes = watchfiles.watch(
        *watched_folders(options),
        watch_filter=InputsFilter(options.out_dir, preview_dir),
        stop_event=stop,
        step=_QUIET_MS,
        # Wake up now and then with no change: the first wake-up says the watcher is
        # running, so a save made during the first build is not lost.
        rust_timeout=_WAKE_UP_MS,
        yield_on_timeout=True,
    )
    first = True
    state = WatchState()
    for batch in changes:
        if first:
            first = False
            report(rebuild(options, preview_dir, state=state))
        changed = net_changes(batch)
        if changed:
            report(rebuild(options, preview_dir, changed, state))


def net_changes(batch: Iterable[tuple[IntEnum, str]]) -> tuple[Path, ...]:
    """The paths a batch of file events (watchfiles' ``Change`` and path) changed, sorted.

    A file made and removed within the batch, and gone now (an editor's or
    ``sed -i``'s temporary file), changed nothing.
    """
    events = list(batch)
    added = {path for change, path in events if change.name == "added"}
    deleted = {path for change, path in events if change.name == "deleted"}
    passing = {path for path in added & deleted if not Path(path).exists()}
    return tuple(sorted({Path(path) for _, path in events if path not in passing}))


def _missing_pages(
    options: BuildOptions, preview_dir: Path, result: BuildResult
) -> tuple[PreviewPage, ...]:
    """Pages of decks that were already up to date (so not rendered) and have no page yet."""
    rendered = {deck.deck.stem for deck in result.rendered}
    missing = tuple(
        source.path
        for source in discover(options.paths)
        if source.path.stem not in rendered
        and not (preview_dir / f"{source.path.stem}.html").is_file()
    )
    if not missing:
        return ()
    return preview(dataclasses.replace(options, paths=missing), preview_dir).pages
