"""Formulas on cards: TeX for Anki's MathJax, or cached SVG images.

Every formula is validated in both modes. In image mode each distinct
formula (and, inside clozes, each front variant) is drawn once, in a
process pool when there are many, and cached on disk by a hash of its source
and the render settings, so a rebuild with nothing changed draws nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial

from markdown_it.common.utils import escapeHtml

from ankigen import anki_markup
from ankigen.diagnostics import Diagnostic, error
from ankigen.gcpause import resume_in_worker
from ankigen.model import Deck, ItemKind, Math, MathMode
from ankigen.render import drawing_pool
from ankigen.render.drawing import FORMULA_TIME_LIMIT
from ankigen.render.media import MediaCache, MediaFile, content_hash
from ankigen.render.tex import (
    RENDER_SETTINGS,
    ClozeVariants,
    RenderedFormula,
    cloze_variants,
    formula_img_html,
    math_cloze_html,
    refused_command,
    tex_problem,
)
from ankigen.syntax.cloze import has_cloze, math_problem
from ankigen.timelimit import ignore_interrupts, interrupts_held

#: The code of a formula error that has no more specific one (format section 13.2).
FORMULA_CODE = "AG301"

#: Below this many formulas a process pool costs more than it saves.
_POOL_THRESHOLD = 24
_INDEX = "math-index.json"


@dataclass(frozen=True)
class _Job:
    """One image to draw: TeX without cloze markers, display or inline."""

    tex: str
    display: bool
    #: Parts drawn in the cloze colour (a gap on a front, the revealed part on a back).
    highlight: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        kind = "d" if self.display else "i"
        marked = "\x1f".join(self.highlight)
        return f"ag-math-{kind}-{content_hash(RENDER_SETTINGS, kind, self.tex, marked)}.svg"


@dataclass(frozen=True)
class _Failure:
    """Why a formula could not be drawn, and the diagnostic code when it is a limit."""

    message: str
    code: str = ""


_Outcome = tuple[bytes, float, float, float] | _Failure


@dataclass(frozen=True)
class _Drawn:
    """A drawn image's name, size in em and depth below the baseline."""

    name: str
    width: float
    height: float
    depth: float


class MathRenderer:
    """Validates formulas, draws the missing images, and writes their HTML."""

    def __init__(self, cache: MediaCache, time_limit: float = FORMULA_TIME_LIMIT) -> None:
        self._cache = cache
        self._time_limit = time_limit
        self._pending: dict[str, tuple[_Job, Math, str]] = {}
        self._sizes: dict[str, _Drawn] = self._load_index()
        self._failed: set[str] = set()
        self._invalid: set[tuple[str, bool]] = set()
        self.diagnostics: list[Diagnostic] = []
        self._used: set[str] = set()
        self._drawn_names: set[str] = set()

    # -- validation and planning ------------------------------------------

    def prepare(self, deck: Deck) -> list[Diagnostic]:
        """Check every formula of a deck and plan the images image mode needs."""
        problems: list[Diagnostic] = []
        for item in deck.items:
            fronts = [(m, item.kind is ItemKind.CLOZE) for m in item.front.maths]
            for math, in_cloze in [*fronts, *((m, False) for m in item.back.maths)]:
                mathjax = deck.math is MathMode.MATHJAX
                problem = tex_problem(math.tex, mathjax=mathjax)
                if problem:
                    self._invalid.add((math.tex, math.display))
                    refused = problem == refused_command(math.tex, mathjax=mathjax)
                    problems.append(_formula_error(deck, math, problem, refused=refused))
                elif deck.math is MathMode.IMAGE:
                    self._plan(math, deck.display_path, cloze=in_cloze)
        return problems

    def _plan(self, math: Math, display_path: str, *, cloze: bool) -> None:
        for job in _jobs(math, cloze=cloze):
            if job.name in self._pending:
                continue
            if job.name in self._sizes and self._cache.has(job.name):
                continue
            self._pending[job.name] = (job, math, display_path)

    # -- drawing -----------------------------------------------------------

    def draw_pending(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Draw every planned image that is not cached, in parallel when worthwhile."""
        jobs = [job for job, _, _ in self._pending.values()]
        if not jobs:
            return
        total = len(jobs)
        outcomes = _draw_all(jobs, self._time_limit)
        for done, (job, outcome) in enumerate(zip(jobs, outcomes, strict=True), 1):
            self._store(job, outcome)
            if progress is not None:
                progress(done, total)
        self._save_index()

    def _store(self, job: _Job, outcome: _Outcome) -> None:
        if isinstance(outcome, _Failure):
            _, math, display_path = self._pending[job.name]
            self._failed.add(job.name)
            self.diagnostics.append(
                error(
                    display_path,
                    math.line,
                    f"formula ${_shown(math.tex)}$ cannot be drawn: {outcome.message}",
                    code=outcome.code or FORMULA_CODE,
                )
            )
            return
        svg, width, height, depth = outcome
        self._cache.put(job.name, svg)
        self._sizes[job.name] = _Drawn(job.name, width, height, depth)
        self._drawn_names.add(job.name)

    # -- HTML --------------------------------------------------------------

    def html(self, math: Math, mode: MathMode, *, cloze: bool) -> tuple[str, list[MediaFile]]:
        """The HTML for one formula, and the media files it references."""
        if mode is MathMode.MATHJAX or (math.tex, math.display) in self._invalid:
            return _mathjax(math), []
        if cloze and has_cloze(math.tex):
            variants = cloze_variants(math.tex)
            jobs = _cloze_jobs(variants, math.display)
            back = self._image(jobs[0])
            images = {job: self._image(job) for job in jobs}
            fronts = {n: images[_front_job(variants, n, math.display)] for n in variants.fronts}
            backs = {n: images[_back_job(variants, n, math.display)] for n in variants.fronts}
            media = [self._cache.get(d.name) for d in images.values() if d.name]
            shown = Math(variants.back, math.display, math.line)
            front_imgs = {n: _img(d, shown) for n, d in fronts.items()}
            back_imgs = {n: _img(d, shown) for n, d in backs.items()}
            return math_cloze_html(_img(back, shown), front_imgs, back_imgs), media
        drawn = self._image(_Job(math.tex, math.display))
        media = [self._cache.get(drawn.name)] if drawn.name else []
        return _img(drawn, math), media

    def _image(self, job: _Job) -> _Drawn:
        drawn = self._sizes.get(job.name)
        if drawn is None or job.name in self._failed:
            return _Drawn("", 0, 0, 0)
        self._used.add(job.name)
        return drawn

    @property
    def reused(self) -> int:
        """Images on cards this build that came from the cache."""
        return len(self._used - self._drawn_names)

    @property
    def drawn(self) -> int:
        """Images drawn (not taken from the cache) this build."""
        return len(self._drawn_names)

    # -- index of sizes ------------------------------------------------------

    def _load_index(self) -> dict[str, _Drawn]:
        try:
            raw = json.loads(self._cache.path(_INDEX).read_text("utf-8"))
            return {name: _Drawn(name, *sizes) for name, sizes in raw.items()}
        except (OSError, ValueError, TypeError):
            return {}

    def _save_index(self) -> None:
        # Merged with what another build running at the same time may have added.
        data: dict[str, object] = {n: [d.width, d.height, d.depth] for n, d in self._sizes.items()}
        self._cache.merge_json(_INDEX, data)


def _jobs(math: Math, *, cloze: bool) -> list[_Job]:
    if not (cloze and has_cloze(math.tex)):
        return [_Job(math.tex, math.display)]
    return _cloze_jobs(cloze_variants(math.tex), math.display)


def _cloze_jobs(variants: ClozeVariants, display: bool) -> list[_Job]:
    """The plain back first, then each card's front and back with its part in colour."""
    jobs = [_Job(variants.back, display)]
    for n in variants.fronts:
        jobs += [_front_job(variants, n, display), _back_job(variants, n, display)]
    return list(dict.fromkeys(jobs))


def _front_job(variants: ClozeVariants, number: int, display: bool) -> _Job:
    return _Job(variants.fronts[number], display, variants.gaps[number])


def _back_job(variants: ClozeVariants, number: int, display: bool) -> _Job:
    return _Job(variants.back, display, variants.revealed[number])


def _draw_all(jobs: list[_Job], time_limit: float) -> Iterator[_Outcome]:
    """Outcomes in job order, as they come: every core draws when there are many."""
    workers = drawing_pool.worker_count(len(jobs), drawing_pool.usable_cores())
    draw = partial(_draw_one, time_limit=time_limit)
    if len(jobs) < _POOL_THRESHOLD or workers < 2:
        yield from map(draw, jobs)
        return
    drawing_pool.warm_up()  # the workers inherit the loaded engines and fonts
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
    try:
        chunks = drawing_pool.chunk_size(len(jobs), workers)
        with interrupts_held():  # the workers are forked here
            outcomes = pool.map(draw, jobs, chunksize=chunks)
        yield from outcomes
    finally:
        # After Ctrl-C or SIGTERM, drawings not yet started are dropped, not waited for.
        pool.shutdown(cancel_futures=True)


def _start_worker() -> None:
    """A forked worker leaves interrupts to the parent and collects its own cycles."""
    ignore_interrupts()
    resume_in_worker()


def _draw_one(job: _Job, time_limit: float) -> _Outcome:
    """Draw one formula (in a worker process) within the drawing limits."""
    from ankigen.render.drawing import DrawingLimitError, draw_within_limits
    from ankigen.render.formula import FormulaError

    try:
        drawn = draw_within_limits(
            job.tex, display=job.display, time_limit=time_limit, highlight=job.highlight
        )
    except DrawingLimitError as exc:
        return _Failure(str(exc), exc.code)
    except FormulaError as exc:
        return _Failure(str(exc))
    return drawn.svg, drawn.width_em, drawn.height_em, drawn.depth_em


def _img(drawn: _Drawn, math: Math) -> str:
    if not drawn.name:
        return ""
    size = RenderedFormula(b"", drawn.width, drawn.height, drawn.depth)
    return formula_img_html(drawn.name, size, display=math.display, alt=math.tex)


def _mathjax(math: Math) -> str:
    # MathJax reads `&#91;` as `[`; Anki's sound and LaTeX parsers do not.
    if math.display:
        return anki_markup.inert_commands(escapeHtml(f"\\[{math.tex}\\]"))
    return anki_markup.inert_commands(escapeHtml(f"\\({math.tex}\\)"))


def _formula_error(deck: Deck, math: Math, problem: str, *, refused: bool) -> Diagnostic:
    delimiter = "$$" if math.display else "$"
    cloze_problem = math_problem(math.tex)
    cloze_code = cloze_problem.code if cloze_problem and cloze_problem.message == problem else ""
    return error(
        deck.display_path,
        math.line,
        f"formula {delimiter}{_shown(math.tex)}{delimiter}: {problem}",
        code="AG601" if refused else (cloze_code or FORMULA_CODE),
    )


def _shown(tex: str) -> str:
    """A formula as quoted in a message: a very long one keeps only its ends."""
    return tex if len(tex) <= 80 else f"{tex[:60]}…{tex[-15:]}"
