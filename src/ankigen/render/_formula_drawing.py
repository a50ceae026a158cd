"""Drawing formulas as images: the engine, its limits, and the processes that draw.

Every formula image is drawn by MathJax 3 in an embedded V8
(``_mathjax_engine``; the way from TeX to SVG is ``_mathjax_drawing``), the
same MathJax that draws mathjax mode in Anki: both modes accept the same TeX.

Limits
------
The TeX is checked against the allow-list and the size limits first
(``_tex_policy``: the same check as at planning); V8 then draws each formula
under ``time_limit`` seconds and a heap limit, and the SVG is capped in size.

Many formulas are drawn in the build's process pool (``ankigen.build.pool``;
``FormulaDrawing``, started right after parsing so the workers draw while the
build checks), each under the limits (``draw_within_limits``), so one slow
formula cannot stall the build.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial

from ankigen.build.pool import BuildPool
from ankigen.build.timelimit import TimeLimits
from ankigen.diagnostics import Code
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
        message = Code.FORMULA_TIME_LIMIT.message(limit=time_limit)
        raise DrawingLimitError(message, Code.FORMULA_TIME_LIMIT) from None
    except _mathjax_drawing.DrawTooDeep:
        raise DrawingLimitError(Code.FORMULA_TOO_DEEP.message(), Code.FORMULA_TOO_DEEP) from None


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

    With a ``pool`` and many jobs (``PoolTuning.draw_min_formulas``), the
    build's workers start drawing at once, in small chunks, so this process can
    go on with other work (the build checks its decks) until it asks for the
    ``outcomes``. Without, they are drawn here, when asked. Close it (``close``,
    or ``with``) to drop the drawings not started.
    """

    def __init__(
        self, jobs: Sequence[FormulaJob], time_limit: float, pool: BuildPool | None
    ) -> None:
        self.jobs = tuple(jobs)
        self._draw = partial(_draw_one, time_limit=time_limit)
        self._pooled: list[Future[list[DrawOutcome]]] | None = None
        self._chunk = 1
        if pool is None or len(self.jobs) < pool.tuning.draw_min_formulas:
            return
        self._chunk = pool.draw_chunk(len(self.jobs))
        self._pooled = pool.map(self._draw, self.jobs, self._chunk)

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
            for at, chunk in zip(range(0, len(self.jobs), self._chunk), self._pooled, strict=True):
                try:
                    yield from chunk.result()
                except BrokenProcessPool:  # its worker died (killed, out of memory): draw here
                    yield from map(self._draw, self.jobs[at : at + self._chunk])
        finally:
            self.close()

    def close(self) -> None:
        """Drop the drawings not started (the pool's workers stay, for the build's next work)."""
        for chunk in self._pooled or ():
            chunk.cancel()
        self._pooled = None


def draw_all(
    jobs: list[FormulaJob], time_limit: float, pool: BuildPool | None = None
) -> Iterator[DrawOutcome]:
    """Outcomes in job order, as they come: drawn in the ``pool``'s workers, or here."""
    with FormulaDrawing(jobs, time_limit, pool) as drawing:
        # After Ctrl-C or SIGTERM, drawings not yet started are dropped, not waited for.
        yield from drawing.outcomes()


def _draw_one(job: FormulaJob, time_limit: float) -> DrawOutcome:
    """Draw one formula (in a worker process) within the drawing limits."""
    try:
        return draw_within_limits(
            job.tex, display=job.display, time_limit=time_limit, card=job.card, hide=job.hide
        )
    except DrawingLimitError as exc:
        return DrawFailure(str(exc), exc.code)
    except FormulaError as exc:
        return DrawFailure(Code.FORMULA_NOT_DRAWN.message(detail=exc), Code.FORMULA_NOT_DRAWN)
