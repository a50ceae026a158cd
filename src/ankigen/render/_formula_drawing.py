"""Drawing formulas as images: which engine, under which limits, in which processes.

Which engine draws a formula (mathtext, or ziamath for what mathtext cannot
draw) is ``render_formula``; the whole way is told in ``_mathtext_drawing``.

Limits
------
Both layout engines are recursive and can be slow on nested input: mathtext
(pyparsing) overflows Python's stack at about 25 nested groups (``\\sqrt{\\sqrt{…}}``),
and ziamath's layout time grows about twice per level (``\\boxed{`` nested 12 deep
takes seconds, 20 deep minutes). Formulas past the depth guard are refused
before either engine sees them; the time limit stops whatever else is slow.

Many formulas are drawn in a process pool (``FormulaDrawing``, started early
so the workers draw while the build checks), each under the limits
(``draw_within_limits``), so one slow formula cannot stall the build.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from ankigen import cpus
from ankigen.gcpause import resume_in_worker
from ankigen.render import _drawing_pool, _fallback_drawing, _tex_syntax
from ankigen.render._formula_image import RENDER_SETTINGS, FormulaError, RenderedFormula
from ankigen.render._media import content_hash
from ankigen.render._tex_policy import tex_problem
from ankigen.timelimit import (
    TimeLimitExceeded,
    TimeLimits,
    call_with_time_limit,
    ignore_interrupts,
    interrupts_held,
)

#: Deepest ``{`` nesting drawn by mathtext (it overflows its stack past ~24).
MAX_DRAW_DEPTH = 20
#: Deepest ``{`` nesting drawn by ziamath (``\boxed``, ``\underbrace``, matrices...).
MAX_FALLBACK_DEPTH = 8
#: Seconds one formula may take to draw (the default of ``formula-time-limit``).
FORMULA_TIME_LIMIT = TimeLimits.formula


class DrawingLimitError(FormulaError):
    """A formula over a drawing limit; ``code`` is its diagnostic code."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def draw_within_limits(
    tex: str, *, display: bool, time_limit: float, highlight: Sequence[str] = ()
) -> RenderedFormula:
    """``render_formula`` under the depth guard and ``time_limit`` seconds."""
    depth_problem = _depth_problem(tex)
    if depth_problem is not None:
        raise DrawingLimitError(depth_problem, "AG663")
    try:
        return call_with_time_limit(
            lambda: render_formula(tex, display=display, highlight=highlight), time_limit
        )
    except TimeLimitExceeded:
        raise DrawingLimitError(
            f"drawing it took longer than the formula time limit of {time_limit:g} s; "
            "simplify it, or raise formula-time-limit in [tool.ankigen]",
            "AG662",
        ) from None
    except RecursionError:
        raise DrawingLimitError(
            "it is too deeply nested to draw as an image: flatten it, or use math: mathjax "
            "(this limit cannot be raised)",
            "AG663",
        ) from None


def _depth_problem(tex: str) -> str | None:
    """A message when the formula nests braces deeper than its layout engine can draw."""
    deepest = _tex_syntax.brace_depth(tex)
    commands = set(_tex_syntax.commands(tex))
    limit = MAX_FALLBACK_DEPTH if commands & _fallback_drawing.TRIGGERS else MAX_DRAW_DEPTH
    if deepest <= limit:
        return None
    where = " with \\boxed, \\underbrace or a matrix" if limit == MAX_FALLBACK_DEPTH else ""
    return (
        f"it nests braces {deepest} deep, and an image of a formula{where} can nest at most "
        f"{limit}: flatten it, or use math: mathjax (this limit cannot be raised)"
    )


# --- one formula --------------------------------------------------------------


def render_formula(tex: str, *, display: bool, highlight: Sequence[str] = ()) -> RenderedFormula:
    """Draw TeX (no cloze markers) as deterministic SVG bytes; raise FormulaError.

    ``highlight`` names parts of ``tex`` (a cloze's gap, or what it reveals) to
    draw in the cloze colour, in bold; only mathtext draws them so. The same
    TeX and settings give the same bytes on every run.
    """
    problem = tex_problem(tex)
    if problem is not None:
        raise FormulaError(problem)
    if _tex_syntax.find_clozes(tex):
        raise FormulaError("cloze markers must be split off with cloze_variants() first")
    if "$" in _tex_syntax.tokens(tex):
        raise FormulaError("a bare '$' inside a formula (write \\$)")
    cmds = _tex_syntax.commands(tex)
    if any(c in _fallback_drawing.TRIGGERS for c in cmds):
        return _fallback_drawing.render_fallback(tex, display=display)
    if any(c in _BIG_OPERATORS for c in cmds) and _fallback_drawing.knows(cmds):
        # mathtext draws a sum at text size in display and its limits above
        # and below even inline; ziamath follows TeX in both (a tall sum with
        # limits under it in display, limits at its side inline).
        return _fallback_drawing.render_fallback(tex, display=display)
    from ankigen.render import _mathtext_drawing as mathtext  # loads matplotlib

    parts = [_tex_syntax.rewrite(part) for part in highlight]
    shown = mathtext.display_style(tex) if display else tex
    return mathtext.render_mathtext(_tex_syntax.rewrite(shown), parts)


#: Operators TeX draws larger in display style than in text.
_BIG_OPERATORS = frozenset(
    {
        "\\sum",
        "\\prod",
        "\\coprod",
        "\\int",
        "\\iint",
        "\\iiint",
        "\\oint",
        "\\bigcup",
        "\\bigcap",
        "\\bigoplus",
        "\\bigotimes",
        "\\bigvee",
        "\\bigwedge",
    }
)


# --- many formulas ------------------------------------------------------------

#: Below this many formulas a process pool costs more than it saves.
_POOL_THRESHOLD = 24


@dataclass(frozen=True)
class FormulaJob:
    """One image to draw: TeX without cloze markers, display or inline."""

    tex: str
    display: bool
    #: Parts drawn in the cloze colour (a gap on a front, the revealed part on a back).
    highlight: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The image's media name: a hash of everything that changes its bytes."""
        kind = "d" if self.display else "i"
        marked = "\x1f".join(self.highlight)
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
    ``processes``) are forked here and start drawing at once, so this process
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
        # the workers inherit the loaded engines and fonts
        _drawing_pool.warm_up(highlighted=any(job.highlight for job in self.jobs))
        self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
        try:
            chunks = _drawing_pool.chunk_size(len(self.jobs), workers)
            with interrupts_held():  # the workers are forked here, and every chunk queued
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
    """A forked worker leaves interrupts to the parent and collects its own cycles."""
    ignore_interrupts()
    resume_in_worker()


def _draw_one(job: FormulaJob, time_limit: float) -> DrawOutcome:
    """Draw one formula (in a worker process) within the drawing limits."""
    try:
        return draw_within_limits(
            job.tex, display=job.display, time_limit=time_limit, highlight=job.highlight
        )
    except DrawingLimitError as exc:
        return DrawFailure(str(exc), exc.code)
    except FormulaError as exc:
        return DrawFailure(str(exc), "AG301")
