"""What a build is asked to do and what it gives back: options, summary, result.

The plain data around the pipeline in ``build.py``; the CLI, the preview and
the watcher build ``BuildOptions`` and read ``BuildResult``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.build.pool import DEFAULT_POOL_TUNING, PoolTuning
from ankigen.build.timelimit import TimeLimits
from ankigen.cache import DEFAULT_TUNING, CacheTuning, Decoded
from ankigen.commands.diff import DeckDiff
from ankigen.diagnostics import Diagnostic
from ankigen.errors import AnkigenError
from ankigen.model import ClaimLevel, MathMode, PackagedDeck, RenderedDeck
from ankigen.package.memo import PackageMemo


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
    #: The claim level of files whose front matter names none (the project's default).
    default_claims: ClaimLevel = ClaimLevel.ANSWERS
    write: bool = True
    strict: bool = False
    #: The release learners have (an .apkg, or a folder of them): report what this one changes.
    against: Path | None = None
    #: Seconds checks, formula images and figures may take ([tool.ankigen] *-time-limit).
    limits: TimeLimits = field(default_factory=TimeLimits)
    #: Processes that draw formula images (1: this one only, no pool); never changes a deck.
    jobs: int = 1
    #: The project folder (figure scripts may read it); None: the figures folder's parent.
    project: Path | None = None
    #: Format §19: leave each item with an error out and write the rest (``--skip-broken``).
    skip_broken: bool = False
    #: The project's preamble file of TeX macros (``[tool.ankigen] macros``, format §17).
    macros_file: Path | None = None
    #: Read and fill the caches under ``OUT/.cache`` (False: ``--no-cache``, all computed afresh).
    cache: bool = True
    #: The thresholds of the caches (memory held, settled files); never changes a deck.
    cache_tuning: CacheTuning = DEFAULT_TUNING
    #: Values decoded from the caches by earlier builds of this process (``ankigen watch``
    #: keeps one between rounds); never changes a deck.
    decoded: Decoded | None = field(default=None, compare=False)
    #: When work goes to the process pool (``build/pool.py``); never changes a deck.
    pool_tuning: PoolTuning = DEFAULT_POOL_TUNING
    #: What a warm process (``watch``) keeps from one deck written to the next
    #: (``package.memo``); None, or ``cache=False``: nothing kept. Never changes a deck.
    package_memo: PackageMemo | None = field(default=None, compare=False)


@dataclass(frozen=True)
class BuildSummary:
    """Counts for the closing summary line."""

    decks: int = 0
    up_to_date: int = 0
    items: int = 0
    checks: int = 0
    failed_checks: int = 0
    #: Quotes of a card that the card does not show (format section 12).
    quotes_missing: int = 0
    #: Claims on a card that no check quotes or cites (format 12.12).
    unverified_claims: int = 0
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
    #: The decks rendered in this run (not those already up to date), for the preview:
    #: each without its broken items (``commands.partial``), a deck with an error outside
    #: its items left out.
    rendered: tuple[RenderedDeck, ...] = ()
    #: One ``left out: <the error>`` error per error of an item left out of ``rendered``.
    left_out: tuple[Diagnostic, ...] = ()
    #: How many items those errors broke (an item may have several).
    items_left_out: int = 0

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
