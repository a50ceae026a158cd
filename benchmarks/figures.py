"""Time drawing figure scripts, each in its own confined child process.

Plain script (argparse), no pytest:

    python benchmarks/figures.py --count 10

Draws one small figure script (a line from a deck formula) ``--count`` times
through ``ankigen.render.draw_figure``, each time into an empty cache so that
it is really drawn, and prints the wall time per figure (median, min, max).
The first draw is left out of the figures: it also imports matplotlib in the
build. A figure's child is a fresh interpreter that confines itself and
imports matplotlib, so most of a figure's time is that import.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import sympy

from ankigen.check._compile import CompiledFormula
from ankigen.render import MediaCache, Place, Shipped, draw_figure

SCRIPT = """
def draw(fig, formulas):
    ks = [1, 2, 4, 8]
    fig.add_subplot().plot(ks, [formulas["S"](k=k) for k in ks])
"""


def time_figures(count: int, image_format: str) -> list[float]:
    """Seconds each of ``count`` + 1 draws took, the first one included."""
    work = Path(tempfile.mkdtemp(prefix="ankigen-bench-figures-"))
    figures = work / "figures"
    figures.mkdir()
    (figures / "curve.py").write_text(SCRIPT, "utf-8")
    formulas = {"S": CompiledFormula("S", sympy.Symbol("k") / 2)}
    seconds = []
    for n in range(count + 1):
        started = time.perf_counter()
        result = draw_figure(
            "curve",
            figures,
            formulas,
            "let S = k/2",
            image_format,
            MediaCache(work / f"cache-{n}"),
            place=Place("bench.md", 1),
            project=work,
        )
        seconds.append(time.perf_counter() - started)
        if not isinstance(result, Shipped):
            raise SystemExit(f"the figure was not drawn: {result}")
    return seconds


def main() -> None:
    """Parse the options, draw, print the times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10, help="figures to time (default 10)")
    parser.add_argument("--format", choices=("svg", "png"), default="svg")
    options = parser.parse_args()
    seconds = time_figures(options.count, options.format)
    first, rest = seconds[0] * 1000, [s * 1000 for s in seconds[1:]]
    print(
        f"{options.count} figures ({options.format}): median {statistics.median(rest):.0f} ms,"
        f" min {min(rest):.0f} ms, max {max(rest):.0f} ms per figure"
        f" (the first, with matplotlib's import in the build: {first:.0f} ms)"
    )


if __name__ == "__main__":
    main()
