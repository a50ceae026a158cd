"""How the process pool that draws formula images is sized, fed and started (issue 12).

* **Workers**: the build's ``-j`` (default: one per core this process may run
  on, its CPU affinity, not the machine's core count), never more than there
  are drawings; ``-j 1`` draws in the build's own process.
* **When**: forked right after parsing (``render.start_rendering``), so they
  draw while the build checks its decks, which needs no image.
* **Chunks**: small. ``pool.map`` hands a worker its next chunk when it is
  done with one, so with small chunks a worker the machine's other load slows
  down simply takes fewer of them, and the last chunk ends close to the
  others. Large chunks (a sixteenth of the work each, before) could leave one
  worker drawing a whole chunk alone at the end, seconds at 10,000 items.
* **Warm-up**: the parent imports matplotlib and ziamath and draws one formula
  with each engine before the workers are forked, so the workers inherit the
  loaded modules, the mathtext grammar and the fonts instead of each building
  its own (about 0.8 s of CPU per worker); with a cloze formula to colour,
  one of those too (it imports matplotlib's Agg backend).
"""

from __future__ import annotations

import gc

#: Jobs per chunk, at most: a few tens of milliseconds of drawing.
MAX_CHUNK = 8
#: Aim for at least this many chunks per worker, so the work spreads evenly.
CHUNKS_PER_WORKER = 32


def chunk_size(jobs: int, workers: int) -> int:
    """Jobs sent to a worker at a time: small, so no worker is left with a long tail."""
    return max(1, min(MAX_CHUNK, jobs // (workers * CHUNKS_PER_WORKER)))


def worker_count(jobs: int, processes: int) -> int:
    """Workers for ``jobs`` drawings when ``processes`` may draw (1: draw in this process)."""
    return max(1, min(processes, jobs))


def warm_up(*, highlighted: bool = False) -> None:
    """Load both layout engines and their fonts in this process, before forking workers.

    Drawn here and thrown away: a plain formula (mathtext) and a sum (ziamath),
    and with ``highlighted`` (some job colours a cloze) a formula with a part in
    the cloze colour: that way goes through matplotlib's own mathtext parser,
    which imports its Agg backend (half a second each worker would spend).
    Inside a build the cyclic collector is paused (``ankigen.gcpause``); what the
    warm-up allocated is frozen with the rest, so a worker's collections do not
    scan it (and do not copy its pages).
    """
    from ankigen.render._formula_drawing import render_formula  # loads matplotlib

    render_formula("x+1", display=False)
    render_formula(r"\sum_{i=1}^{n} x_i", display=True)
    if highlighted:
        render_formula("x+1", display=False, highlight=("x",))
    if not gc.isenabled():  # inside no_cyclic_gc(), which unfreezes everything at its end
        gc.freeze()
