"""Each figure of a build drawn once, and the time the figures of each content file share."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from ankigen.build.timelimit import TimeLimits
from ankigen.render._figures import Formulas, draw_figure
from ankigen.render._media import Failed, MediaCache, Place, ShipResult

__all__ = ["FigureDrawer"]


class FigureDrawer:
    """Draws each (figure, formulas) pair at most once per build."""

    def __init__(
        self,
        figures_dir: Path,
        image_format: str,
        limits: TimeLimits,
        cache: MediaCache,
        project: Path,
    ) -> None:
        self._figures_dir = figures_dir
        self._image_format = image_format
        self._limits = limits
        self._cache = cache
        self._project = project
        self._results: dict[tuple[str, str], ShipResult] = {}
        #: Seconds each content file's figure scripts have taken so far.
        self._spent: dict[str, float] = {}
        self.drawn = 0
        self.reused = 0

    def draw(
        self, figure_id: str, formulas: Formulas, formulas_source: str, place: Place
    ) -> ShipResult:
        """The figure drawn with these formulas, drawn now or earlier in this build.

        A figure that failed fails the same way at every reference; each
        reference gets the error at its own ``place``.
        """
        key = (figure_id, formulas_source)
        result = self._results.get(key)
        if result is None:
            result = self._draw(figure_id, formulas, formulas_source, place)
        if isinstance(result, Failed):
            moved = dataclasses.replace(result.diagnostic, file=place.file, line=place.line)
            return Failed(moved)
        return result

    def _draw(
        self, figure_id: str, formulas: Formulas, formulas_source: str, place: Place
    ) -> ShipResult:
        """Draw within what is left of the file's budget; keep the result for the build.

        A failure under a budget shorter than the figure time limit is not
        kept: another file, with time left, may draw the figure.
        """
        spent = self._spent.get(place.file, 0.0)
        budget = self._limits.figure_deck - spent
        started = time.monotonic()
        result = draw_figure(
            figure_id,
            self._figures_dir,
            formulas,
            formulas_source,
            self._image_format,
            self._cache,
            self._limits.figure,
            place=place,
            budget=budget,
            project=self._project,
        )
        self._spent[place.file] = spent + time.monotonic() - started
        if isinstance(result, Failed):
            if budget >= self._limits.figure:
                self._results[(figure_id, formulas_source)] = result
            return result
        self.drawn += result.drawn
        self.reused += not result.drawn
        self._results[(figure_id, formulas_source)] = result
        return result
