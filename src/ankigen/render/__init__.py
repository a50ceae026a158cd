"""Render stage: fill each item's math and image slots, producing notes and media.

Input is parsed (and checked) decks; output is ``RenderedDeck`` values whose
notes hold final field HTML and whose media are files (in the cache folder,
or image files where they are) or sanitised SVG bytes held in memory.
Nothing is written outside the cache; packaging happens later.

This module is the stage's one facade: other stages, commands and tests
import from ``ankigen.render``, never from its ``_private`` modules. Those are
named for their role (docs/architecture.md has the table): TeX syntax and
policy (``_tex_syntax``, ``_tex_policy``; TeX's tokens and allow-list are
``ankigen.syntax.tex``), formula images,
drawing and HTML (``_formula_image``, ``_formula_drawing``, ``_mathjax_drawing``,
``_mathjax_engine``, ``_formula_html``, ``_math_renderer``), ``_figures``,
``_images``, ``_svg_safety``, ``_svg_store``, ``_media`` and ``_notes`` (items
to notes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ankigen.build.pool import BuildPool
from ankigen.build.timelimit import TimeLimits
from ankigen.cache import DEFAULT_TUNING, CacheTuning, Decoded
from ankigen.diagnostics import Diagnostic, Sink, sort_diagnostics
from ankigen.model import Deck, MathMode, RenderedDeck
from ankigen.render._figure_drawer import FigureDrawer
from ankigen.render._figures import MIN_TEXT_PX, Formulas, draw_figure
from ankigen.render._formula_drawing import DrawingLimitError, draw_within_limits, render_formula
from ankigen.render._formula_html import cloze_variants, formula_img_html, math_cloze_html
from ankigen.render._formula_image import RENDER_SETTINGS, FormulaError, RenderedFormula
from ankigen.render._images import MAX_IMAGE_BYTES, Folders, ship_image
from ankigen.render._math_renderer import MathRenderer
from ankigen.render._media import Failed, MediaCache, Place, Shipped, ShipResult
from ankigen.render._note_cache import NoteCache
from ankigen.render._notes import DeckFiller
from ankigen.render._svg_safety import CleanSvg, RefusedSvg, SvgResult, sanitise_svg
from ankigen.render._tex_policy import tex_problem
from ankigen.sandbox.figure import FIGURE_FONT_SIZE

#: Called as ``progress(done, total)`` while formulas and figures render.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RenderSettings:
    """Where figures come from, where rendered media are cached, and how figures are saved."""

    figures_dir: Path
    cache_dir: Path
    figure_format: str = "svg"
    limits: TimeLimits = field(default_factory=TimeLimits)
    #: Reuse (and refill) each deck's rendered notes in ``cache_dir`` (``_note_cache``).
    reuse_notes: bool = False
    #: The build's process pool, whose workers draw formula images (None: drawn here).
    pool: BuildPool | None = None
    #: The project folder: a figure script may read it (None: the figures folder's parent).
    project: Path | None = None
    #: The thresholds of the caches in ``cache_dir`` (memory held, settled files).
    cache_tuning: CacheTuning = DEFAULT_TUNING
    #: Values decoded from the caches by earlier builds of this process (``ankigen watch``).
    decoded: Decoded | None = field(default=None, compare=False)


@dataclass(frozen=True)
class RenderReport:
    """What rendering produced: decks, problems, and how many images were drawn or cached."""

    decks: tuple[RenderedDeck, ...]
    diagnostics: tuple[Diagnostic, ...]
    rendered: int = 0
    cached: int = 0
    #: Notes whose HTML came from an earlier build (the rest were filled now).
    notes_reused: int = 0


class Rendering:
    """A render under way: every deck's formulas checked, the missing images being drawn.

    Made right after parsing (``start_rendering``), so that worker processes
    draw the formula images while this process checks the decks; ``finish``
    then fills the notes, with what the checks compiled for the figures. Use
    it in a ``with`` block: leaving it early stops the workers.
    """

    def __init__(self, decks: list[Deck], settings: RenderSettings) -> None:
        cache = self._cache = MediaCache(
            settings.cache_dir, settings.cache_tuning, settings.decoded
        )
        self._maths = MathRenderer(cache, settings.limits.formula)
        self._figures = FigureDrawer(
            settings.figures_dir,
            settings.figure_format,
            settings.limits,
            cache,
            settings.project or settings.figures_dir.parent,
        )
        # One sink per deck (its file), all reporting into one list in the order found.
        self._diagnostics: list[Diagnostic] = []
        self._fillers = [
            DeckFiller(
                deck,
                Sink(deck.display_path, self._diagnostics),
                self._maths,
                self._figures,
                cache,
                _stored_notes(deck, settings, cache),
            )
            for deck in decks
        ]
        for filler in self._fillers:
            self._maths.prepare(filler.deck, filler.sink, skip=filler.reused)
        self._maths.start_drawing(settings.pool)

    def __enter__(self) -> Rendering:
        return self

    def __exit__(self, *exc: object) -> None:
        self._maths.stop_drawing()
        self._cache.close()  # its store's connection: see ``build.build_cache``
        # Each deck's filler holds its note cache's records (45 MB at 100,000 items), saved
        # by now: they go before the decks are packaged, not when the build ends.
        self._fillers = []

    def finish(
        self,
        formulas: Mapping[Path, Formulas],
        formulas_source: Mapping[Path, str],
        progress: Progress | None = None,
    ) -> RenderReport:
        """Every deck rendered: the images collected, figures drawn, the notes filled."""
        self._maths.draw_pending(progress)
        rendered = [
            filler.rendered(
                formulas.get(filler.deck.path, {}), formulas_source.get(filler.deck.path, "")
            )
            for filler in self._fillers
        ]
        # Formulas that could not be drawn come last, as they always have: the
        # order of two diagnostics at one place is the order they are printed in.
        self._maths.report_undrawn()
        self._cache.save_index()  # the figures drawn now, beside the formula images
        return RenderReport(
            tuple(rendered),
            tuple(sort_diagnostics(self._diagnostics)),
            rendered=self._maths.drawn + self._figures.drawn,
            cached=self._maths.reused + self._figures.reused,
            notes_reused=sum(filler.hits for filler in self._fillers),
        )


def start_rendering(decks: list[Deck], settings: RenderSettings) -> Rendering:
    """Check and plan every deck's formulas, and start drawing the missing images."""
    return Rendering(decks, settings)


def render_decks(
    decks: list[Deck],
    formulas: Mapping[Path, Formulas],
    formulas_source: Mapping[Path, str],
    settings: RenderSettings,
    progress: Progress | None = None,
) -> RenderReport:
    """Render every deck: formulas (drawn in parallel, cached), figures and images."""
    with start_rendering(decks, settings) as rendering:
        return rendering.finish(formulas, formulas_source, progress)


def _stored_notes(deck: Deck, settings: RenderSettings, cache: MediaCache) -> NoteCache | None:
    """The deck's rendered notes of the last build, when this build reuses them."""
    if not settings.reuse_notes:
        return None
    return NoteCache(cache.store, deck, cache.decoded, cache.tuning)


__all__ = [
    "FIGURE_FONT_SIZE",
    "MAX_IMAGE_BYTES",
    "MIN_TEXT_PX",
    "RENDER_SETTINGS",
    "CleanSvg",
    "DrawingLimitError",
    "Failed",
    "Folders",
    "FormulaError",
    "MathMode",
    "MathRenderer",
    "MediaCache",
    "Place",
    "Progress",
    "RefusedSvg",
    "RenderReport",
    "RenderSettings",
    "RenderedFormula",
    "Rendering",
    "ShipResult",
    "Shipped",
    "SvgResult",
    "cloze_variants",
    "draw_figure",
    "draw_within_limits",
    "formula_img_html",
    "math_cloze_html",
    "render_decks",
    "render_formula",
    "sanitise_svg",
    "ship_image",
    "start_rendering",
    "tex_problem",
]
