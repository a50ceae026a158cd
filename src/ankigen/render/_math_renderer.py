"""Formulas on cards: TeX for Anki's MathJax, or cached SVG images.

Every formula is validated in both modes. In image mode each distinct
formula (and, inside clozes, each front variant) is drawn once, in a
process pool when there are many, and cached on disk by a hash of its source
and the render settings, so a rebuild with nothing changed draws nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from ankigen.build.pool import BuildPool
from ankigen.diagnostics import Sink
from ankigen.model import Deck, ItemKind, Math, MathMode, MediaFile
from ankigen.render._formula_drawing import (
    FORMULA_TIME_LIMIT,
    DrawFailure,
    DrawOutcome,
    FormulaDrawing,
    FormulaJob,
)
from ankigen.render._formula_html import (
    cloze_variants,
    formula_img_html,
    math_cloze_html,
    mathjax_html,
)
from ankigen.render._formula_image import RenderedFormula
from ankigen.render._media import MediaCache
from ankigen.render._tex_policy import formula_problem
from ankigen.syntax.cloze import has_cloze
from ankigen.syntax.tex_macros import uses_macro


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
        self._pending: dict[str, tuple[FormulaJob, Math, Sink]] = {}
        self._sizes: dict[str, _Drawn] = {}
        self._failed: dict[str, DrawFailure] = {}
        self._invalid: set[tuple[str, bool]] = set()
        self._used: set[str] = set()
        self._drawn_names: set[str] = set()
        self._drawing: FormulaDrawing | None = None

    # -- validation and planning ------------------------------------------

    def prepare(self, deck: Deck, sink: Sink, skip: Collection[int] = ()) -> None:
        """Check every formula of a deck and plan the images image mode needs.

        A formula that may not reach a card is an error in ``sink``, the deck's.
        The items at the indexes in ``skip`` have notes from an earlier build
        whose formulas all passed these same checks (``_note_cache``): skipped.
        """
        macros = frozenset(deck.macros)
        for index, item in enumerate(deck.items):
            if index in skip:
                continue
            fronts = [(m, item.kind is ItemKind.CLOZE) for m in item.front.maths]
            for math, in_cloze in [*fronts, *((m, False) for m in item.back.maths)]:
                problem = formula_problem(math.tex)
                if problem and uses_macro(math.tex, macros):
                    # An author's macro left in a formula is one whose expansion (or
                    # definition) parse reported: no second error telling to define it.
                    self._invalid.add((math.tex, math.display))
                elif problem:
                    self._invalid.add((math.tex, math.display))
                    delimiter = "$$" if math.display else "$"
                    shown = f"{delimiter}{_shown(math.tex)}{delimiter}"
                    sink.error(
                        math.line,
                        f"formula {shown}: {problem.message}",
                        column=math.column,
                        code=problem.code,
                    )
                elif not in_cloze and has_cloze(math.tex):
                    # cloze syntax where no cloze is read (a reveal answer, an
                    # Extra): the parser reports it; drawing it would only add
                    # a second error in the drawing code's words
                    self._invalid.add((math.tex, math.display))
                elif deck.math is MathMode.IMAGE:
                    self._plan(math, sink, cloze=in_cloze)

    def _plan(self, math: Math, sink: Sink, *, cloze: bool) -> None:
        for job in _jobs(math, cloze=cloze):
            if job.name in self._pending:
                continue
            if self._known(job.name) is not None:
                continue
            self._pending[job.name] = (job, math, sink)

    def reuse(self, names: Iterable[str]) -> bool:
        """Use these cached images for a stored note; False (nothing used) when one is gone.

        An image counts as cached exactly as in ``prepare``: in the cache folder
        with its size in the index. A missing one makes the note a miss, so it
        is planned, drawn and filled as in a cold build.
        """
        wanted = list(names)
        if not wanted:
            return True
        if not all(self._known(name) is not None for name in wanted):
            return False
        self._used.update(wanted)
        return True

    def clean(self, math: Math, mode: MathMode, *, cloze: bool) -> bool:
        """True when ``math`` was accepted and (image mode) every image of it was drawn."""
        if (math.tex, math.display) in self._invalid:
            return False
        if mode is MathMode.MATHJAX:
            return True
        return all(
            self._known(job.name) is not None and job.name not in self._failed
            for job in _jobs(math, cloze=cloze)
        )

    # -- drawing -----------------------------------------------------------

    def start_drawing(self, pool: BuildPool | None) -> None:
        """Start drawing every planned image not drawn yet: in the ``pool``'s workers too.

        With many images, worker processes draw them from now on, while this
        process goes on (the build checks its decks); ``draw_pending`` collects them.
        """
        if self._drawing is not None:
            return
        jobs = [
            job
            for job, _, _ in self._pending.values()
            if job.name not in self._drawn_names and job.name not in self._failed
        ]
        if jobs:
            self._drawing = FormulaDrawing(jobs, self._time_limit, pool)

    def stop_drawing(self) -> None:
        """Stop the workers of a drawing not collected (the build failed or was stopped)."""
        drawing, self._drawing = self._drawing, None
        if drawing is not None:
            drawing.close()

    def draw_pending(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Draw (or collect, once started) every planned image that is not cached.

        A formula that could not be drawn is kept for :meth:`report_undrawn`.
        """
        self.start_drawing(None)  # unless started earlier, with the build's pool
        drawing, self._drawing = self._drawing, None
        if drawing is None:
            return
        total = len(drawing.jobs)
        with drawing:
            for done, (job, outcome) in enumerate(
                zip(drawing.jobs, drawing.outcomes(), strict=True), 1
            ):
                self._store(job, outcome)
                if progress is not None:
                    progress(done, total)
        self._cache.save_index()

    def report_undrawn(self) -> None:
        """Report each formula that could not be drawn, in the sink of its deck.

        Called once the notes are filled: at one place of a file, these errors
        come after those of its images and figures, as they always have.
        """
        for name, failure in self._failed.items():
            _, math, sink = self._pending[name]
            message = f"formula ${_shown(math.tex)}$ cannot be drawn: {failure.message}"
            sink.error(math.line, message, column=math.column, code=failure.code)

    def _store(self, job: FormulaJob, outcome: DrawOutcome) -> None:
        """Keep a drawn image and its size, or why it could not be drawn."""
        if isinstance(outcome, DrawFailure):
            self._failed[job.name] = outcome
            return
        sizes = (outcome.width_em, outcome.height_em, outcome.depth_em)
        self._cache.put(job.name, outcome.svg, sizes)
        self._sizes[job.name] = _Drawn(job.name, *sizes)
        self._drawn_names.add(job.name)
        return None

    # -- HTML --------------------------------------------------------------

    def html(self, math: Math, mode: MathMode, *, cloze: bool) -> tuple[str, list[MediaFile]]:
        """The HTML for one formula, and the media files it references."""
        invalid = (math.tex, math.display) in self._invalid
        if mode is MathMode.MATHJAX or invalid:
            clozed = cloze and not invalid and has_cloze(math.tex)
            return mathjax_html(math.tex, display=math.display, cloze=clozed), []
        if cloze and has_cloze(math.tex):
            variants = cloze_variants(math.tex)
            back = self._image(FormulaJob(variants.back, math.display))
            fronts = {n: self._image(_card_job(math, n, hide=True)) for n in variants.fronts}
            backs = {n: self._image(_card_job(math, n, hide=False)) for n in variants.fronts}
            images = [back, *fronts.values(), *backs.values()]
            media = [self._cache.get(d.name) for d in dict.fromkeys(images) if d is not None]
            shown = Math(variants.back, math.display, math.line, math.column)
            # a gap image's alt is its own TeX: the whole formula would give the answer away
            front_imgs = {
                n: _img(d, Math(variants.fronts[n], math.display, math.line, math.column))
                for n, d in fronts.items()
            }
            back_imgs = {n: _img(d, shown) for n, d in backs.items()}
            return math_cloze_html(_img(back, shown), front_imgs, back_imgs), media
        drawn = self._image(FormulaJob(math.tex, math.display))
        media = [self._cache.get(drawn.name)] if drawn is not None else []
        return _img(drawn, math), media

    def _image(self, job: FormulaJob) -> _Drawn | None:
        """The drawn image of ``job``, or None when it could not be drawn (already reported)."""
        drawn = self._known(job.name)
        if drawn is None or job.name in self._failed:
            return None
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

    # -- images in the cache -------------------------------------------------

    def _known(self, name: str) -> _Drawn | None:
        """The sizes of an image drawn now, or cached (sealed index, bytes as recorded)."""
        drawn = self._sizes.get(name)
        if drawn is None:
            sizes = self._cache.sizes(name)
            if len(sizes) == 3 and self._cache.has(name):
                drawn = self._sizes[name] = _Drawn(name, *sizes)
        return drawn


def _jobs(math: Math, *, cloze: bool) -> list[FormulaJob]:
    """The images of a formula: itself, or (clozed) its whole and each card's front and back."""
    if not (cloze and has_cloze(math.tex)):
        return [FormulaJob(math.tex, math.display)]
    variants = cloze_variants(math.tex)
    jobs = [FormulaJob(variants.back, math.display)]
    for n in variants.fronts:
        jobs += [_card_job(math, n, hide=True), _card_job(math, n, hide=False)]
    return jobs


def _card_job(math: Math, number: int, *, hide: bool) -> FormulaJob:
    """Card ``number``'s image: its cloze's gap (front) or text (back) in the cloze colour."""
    return FormulaJob(math.tex, math.display, card=number, hide=hide)


def _img(drawn: _Drawn | None, math: Math) -> str:
    if drawn is None:
        return ""
    size = RenderedFormula(b"", drawn.width, drawn.height, drawn.depth)
    return formula_img_html(drawn.name, size, display=math.display, alt=math.tex)


def _shown(tex: str) -> str:
    """A formula as quoted in a message: a very long one keeps only its ends."""
    return tex if len(tex) <= 80 else f"{tex[:60]}…{tex[-15:]}"
