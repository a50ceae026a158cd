"""Figures are legible on a 360 px phone card: the defaults, and the seed's own figures."""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from ankigen.check import check_deck
from ankigen.parse import parse_file
from ankigen.render._figures import MIN_TEXT_PX, smallest_text_px
from ankigen.sandbox.figure import (  # the figure defaults themselves, under test
    FIGURE_SIZE,
    figure_rc,
)

SEED_FIGURES = Path(__file__).resolve().parents[2] / "figures"
SEED_DECK = SEED_FIGURES.parent / "content" / "distributed-training.md"

#: What a new author writes first: no size, no font sizes.
DEFAULT_SCRIPT = """
def draw(fig, formulas):
    ax = fig.add_subplot()
    ax.plot([1, 2, 4, 8], [1, 1.9, 3.5, 6], label="measured")
    ax.set_xlabel("devices")
    ax.set_ylabel("speedup")
    ax.set_title("Speedup")
    ax.legend()
"""


@functools.cache
def _seed_formulas() -> Mapping[str, Callable[..., float]]:
    """The seed deck's checked formulas, which its figures draw from."""
    deck = parse_file(SEED_DECK, SEED_DECK.parent).deck
    assert deck is not None
    return check_deck(deck).formulas


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"legibility_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _drawn(path: Path, formulas: Mapping[str, Callable[..., float]]) -> Figure:
    with figure_rc():
        fig = Figure(figsize=FIGURE_SIZE, dpi=100)
        _load(path).draw(fig, formulas)
        fig.canvas.draw_idle()
    return fig


def test_a_default_figure_is_legible_on_a_phone(tmp_path: Path) -> None:
    script = tmp_path / "default.py"
    script.write_text(DEFAULT_SCRIPT, "utf-8")
    with figure_rc():
        fig = _drawn(script, {})
        assert smallest_text_px(fig) >= MIN_TEXT_PX
    # the same figure at matplotlib's own defaults (6.4 x 4.8 in, 10 pt) is not
    plain = Figure()
    _load(script).draw(plain, {})
    assert smallest_text_px(plain) < MIN_TEXT_PX


@pytest.mark.parametrize("figure_id", ["s01", "s02"])
def test_seed_figures_are_legible_on_a_phone(figure_id: str) -> None:
    with figure_rc():
        fig = _drawn(SEED_FIGURES / f"{figure_id}.py", _seed_formulas())
        assert smallest_text_px(fig) >= MIN_TEXT_PX


def test_s02_says_it_is_illustrative_and_starts_at_one() -> None:
    with figure_rc():
        fig = _drawn(SEED_FIGURES / "s02.py", _seed_formulas())
    texts = " ".join(t.get_text() for t in fig.findobj(Text))
    assert "illustrative" in texts
    curves = fig.axes[0].get_lines()  # not the legend's sample lines
    assert len(curves) == 4  # the ideal line and three links
    for line in curves:
        xs, ys = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        assert xs[0] == 1 and ys[0] == pytest.approx(1.0)


def test_s01_legend_covers_no_bar() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with figure_rc():
        fig = _drawn(SEED_FIGURES / "s01.py", _seed_formulas())
        canvas = FigureCanvasAgg(fig)
        canvas.draw()  # type: ignore[no-untyped-call]
        renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    ax = fig.axes[0]
    legend = ax.get_legend()
    assert legend is not None
    box = legend.get_window_extent(renderer)
    bars = ax.patches
    assert len(bars) == 8  # compute and communication, for k = 1, 2, 4, 8
    assert not any(bar.get_window_extent(renderer).overlaps(box) for bar in bars)
