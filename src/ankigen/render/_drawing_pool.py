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
* **Started clean** (``worker_context``): V8 cannot be used across a fork (its
  threads stay behind; a worker forked from a process that had drawn died
  making its own), so the workers are spawned: fresh interpreters, given
  this process's ``sys.path`` and folder (the fork server is not: Python
  3.11's starts with its own path, and could load another copy of ankigen),
  each starting its own V8 and MathJax on its first formula. That costs
  about half a second, so the pool is used only for many formulas
  (``_formula_drawing._POOL_THRESHOLD``).
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.context import BaseContext

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


def worker_context() -> BaseContext:
    """Where the workers come from: spawned fresh interpreters (no V8 inherited)."""
    return multiprocessing.get_context("spawn")
