"""Drawing formulas as images: the engine, its limits, and the processes that draw.

Every formula image is drawn by MathJax 3 in an embedded V8
(``_mathjax_engine``; the way from TeX to SVG is ``_mathjax_drawing``), the
same MathJax that draws mathjax mode in Anki: both modes accept the same TeX.

Limits
------
The TeX is checked against the allow-list and the size limits first
(``_tex_policy``: the same check as at planning); V8 then draws each formula
under ``time_limit`` seconds and a heap limit, and the SVG is capped in size.

Many formulas are drawn in a process pool (``FormulaDrawing``, started early
so the workers draw while the build checks), each under the limits
(``draw_within_limits``), so one slow formula cannot stall the build.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from ankigen.build import cpus
from ankigen.build.gcpause import resume_in_worker
from ankigen.build.timelimit import TimeLimits, ignore_interrupts, interrupts_held
from ankigen.diagnostics import Code
from ankigen.render import _drawing_pool
from ankigen.render._formula_image import RENDER_SETTINGS, FormulaError, RenderedFormula
from ankigen.render._media import content_hash

#: Seconds one formula may take to draw (the default of ``formula-time-limit``).
FORMULA_TIME_LIMIT = TimeLimits.formula


class DrawingLimitError(FormulaError):
    """A formula over a drawing limit; ``code`` is its diagnostic code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def draw_within_limits(
    tex: str, *, display: bool, time_limit: float, card: int = 0, hide: bool = False
) -> RenderedFormula:
    """``render_formula`` within ``time_limit`` seconds; DrawingLimitError past it."""
    from ankigen.render import _mathjax_drawing  # loads V8 on first use

    try:
        return _mathjax_drawing.draw(
            tex, display=display, time_limit=time_limit, card=card, hide=hide
        )
    except _mathjax_drawing.DrawTimeout:
        raise DrawingLimitError(
            f"drawing it took longer than the formula time limit of {time_limit:g} s; "
            "simplify it, or raise formula-time-limit in [tool.ankigen]",
            Code.FORMULA_TIME_LIMIT,
        ) from None
    except _mathjax_drawing.DrawTooDeep:
        raise DrawingLimitError(
            "it is too deeply nested to draw as an image: flatten it (this limit cannot be raised)",
            Code.FORMULA_TOO_DEEP,
        ) from None


# --- one formula --------------------------------------------------------------


def render_formula(
    tex: str, *, display: bool, card: int = 0, hide: bool = False
) -> RenderedFormula:
    """Draw TeX as deterministic SVG bytes; raise FormulaError.

    ``tex`` holds no cloze markers, unless ``card`` names the cloze number whose
    part is drawn in the cloze colour: its gap with ``hide`` (the card's front),
    else its text (the card's back); the other clozes show their text. The same
    TeX and settings give the same bytes on every run and in every process.
    """
    return draw_within_limits(
        tex, display=display, time_limit=FORMULA_TIME_LIMIT, card=card, hide=hide
    )


# --- many formulas ------------------------------------------------------------

#: Below this many formulas a process pool costs more than it saves: the
#: workers start from a fresh interpreter with their own V8 and MathJax
#: (about half a second, some 200 formulas' drawing).
_POOL_THRESHOLD = 400


@dataclass(frozen=True)
class FormulaJob:
    """One image to draw: TeX, display or inline, and the cloze it colours.

    With ``card`` (a cloze number) the TeX holds its cloze markers and that
    cloze's part is drawn in the cloze colour: its gap with ``hide`` (card
    ``card``'s front), else its text (its back). Without, no cloze markers.
    """

    tex: str
    display: bool
    card: int = 0
    hide: bool = False

    @property
    def name(self) -> str:
        """The image's media name: a hash of everything that changes its bytes."""
        kind = "d" if self.display else "i"
        marked = f"{self.card}{'h' if self.hide else 's'}" if self.card else ""
        return f"ag-math-{kind}-{content_hash(RENDER_SETTINGS, kind, self.tex, marked)}.svg"


@dataclass(frozen=True)
class DrawFailure:
    """Why a formula could not be drawn, and its diagnostic code."""

    message: str
    code: str


#: What drawing one job gives: the image, or why there is none.
DrawOutcome = RenderedFormula | DrawFailure


class FormulaDrawing:
    """Formula images being drawn, from the moment this is made; their outcomes in job order.

    With many jobs and ``processes`` above 1, worker processes (at most
    ``processes``, started by ``_drawing_pool.worker_context``) start drawing
    at once, so this process
    can go on with other work (the build checks its decks) until it asks for
    the ``outcomes``. Few jobs, or one process: they are drawn here, when asked.
    Close it (``close``, or ``with``) to stop the workers early.
    """

    def __init__(self, jobs: Sequence[FormulaJob], time_limit: float, processes: int) -> None:
        self.jobs = tuple(jobs)
        self._draw = partial(_draw_one, time_limit=time_limit)
        self._pool: ProcessPoolExecutor | None = None
        self._pooled: Iterator[DrawOutcome] | None = None
        workers = _drawing_pool.worker_count(len(self.jobs), processes)
        if len(self.jobs) < _POOL_THRESHOLD or workers < 2:
            return
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=_drawing_pool.worker_context(),
            initializer=_start_worker,
        )
        try:
            chunks = _drawing_pool.chunk_size(len(self.jobs), workers)
            with interrupts_held():  # the workers are started here, and every chunk queued
                self._pooled = self._pool.map(self._draw, self.jobs, chunksize=chunks)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> FormulaDrawing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def outcomes(self) -> Iterator[DrawOutcome]:
        """Each job's outcome, in job order, as they come (drawn here without workers)."""
        if self._pooled is None:
            yield from map(self._draw, self.jobs)
            return
        try:
            yield from self._pooled
        finally:
            self.close()

    def close(self) -> None:
        """End the workers; drawings not yet started are dropped, not waited for."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def draw_all(
    jobs: list[FormulaJob], time_limit: float, processes: int | None = None
) -> Iterator[DrawOutcome]:
    """Outcomes in job order, as they come: ``processes`` draw (default: every usable CPU)."""
    with FormulaDrawing(jobs, time_limit, processes or cpus.usable_cpus()) as drawing:
        # After Ctrl-C or SIGTERM, drawings not yet started are dropped, not waited for.
        yield from drawing.outcomes()


def _start_worker() -> None:
    """A worker leaves interrupts to the parent and collects its own cycles."""
    ignore_interrupts()
    resume_in_worker()


def _draw_one(job: FormulaJob, time_limit: float) -> DrawOutcome:
    """Draw one formula (in a worker process) within the drawing limits."""
    try:
        return draw_within_limits(
            job.tex, display=job.display, time_limit=time_limit, card=job.card, hide=job.hide
        )
    except DrawingLimitError as exc:
        return DrawFailure(str(exc), exc.code)
    except FormulaError as exc:
        return DrawFailure(str(exc), Code.FORMULA_NOT_DRAWN)
