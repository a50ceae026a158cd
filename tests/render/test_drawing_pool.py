"""Formula images drawn by the worker pool are the images one process draws.

The build's pool (``build/pool.py``) spawns workers that each start their own
V8 and MathJax: the images must not depend on which process drew
them, in what order, or in which run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from ankigen.build.pool import BuildPool, PoolTuning
from ankigen.render import _formula_drawing as drawing
from ankigen.render._formula_drawing import render_formula

_TERMS = ["x", r"\alpha", r"\frac{1}{n}", r"\sqrt{k}", r"\theta_t", "e^{-t}", r"\sigma^2"]


def _jobs() -> list[drawing.FormulaJob]:
    jobs = []
    for i, a in enumerate(_TERMS):
        for j, b in enumerate(_TERMS):
            for k in range(9):
                tex = f"{a} + {b} = {i * 7 + j + 100 * k}"
                jobs.append(drawing.FormulaJob(tex, display=(i + j + k) % 2 == 0))
    jobs.append(drawing.FormulaJob(r"\sum_{i=1}^{n} x_i", display=True))
    jobs.append(drawing.FormulaJob(r"a + {{c1::b}} = c", display=False, card=1, hide=True))
    jobs.append(drawing.FormulaJob(r"\foo", display=False))  # a failure, in its place
    return jobs


def test_pool_draws_what_one_process_draws() -> None:
    jobs = _jobs()
    with BuildPool(2) as pool:
        assert len(jobs) >= pool.tuning.draw_min_formulas  # the pool is used
        pooled = list(drawing.draw_all(jobs, time_limit=30, pool=pool))
    alone = [drawing._draw_one(job, time_limit=30) for job in jobs]
    failed = [o for o in pooled if isinstance(o, drawing.DrawFailure)]
    assert [f.code for f in failed] == ["AG301"]
    assert pooled == alone


_CHILD = """
import json, sys
from ankigen.render._formula_drawing import render_formula
out = {}
for tex in json.loads(sys.argv[1]):
    out[tex] = render_formula(tex, display=False).svg.hex()
print(json.dumps(out))
"""


def test_same_formula_same_bytes_in_another_process() -> None:
    formulas = [r"\frac{\sigma}{\sqrt{n}}", r"\sum_{i=1}^{k} g_i", r"\hat{y}_t"]
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    run = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(formulas[::-1])],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    theirs = json.loads(run.stdout)
    for tex in formulas:
        assert bytes.fromhex(theirs[tex]) == render_formula(tex, display=False).svg


def test_chunks_stay_small_and_spread_over_the_workers() -> None:
    pool = BuildPool(2)  # no process starts until work is sent
    assert pool.draw_chunk(2518) == pool.tuning.draw_max_chunk
    assert pool.draw_chunk(251) == 3
    assert pool.draw_chunk(30) == 1
    assert BuildPool.for_jobs(1) is None  # -j 1: drawn in the build's process


def test_few_formulas_are_drawn_without_the_pool() -> None:
    jobs = _jobs()[:5]
    sent: list[int] = []

    def no_executor(workers: int) -> Executor:
        sent.append(workers)
        raise AssertionError("no worker for a few formulas")

    with BuildPool(2, PoolTuning(), no_executor) as pool:
        drawn = list(drawing.draw_all(jobs, time_limit=30, pool=pool))
    assert sent == [] and drawn == [drawing._draw_one(job, time_limit=30) for job in jobs]


class _DeadWorkers(ThreadPoolExecutor):
    """Every chunk fails as the chunk of a worker that died does (``BrokenProcessPool``)."""

    def submit(self, *args: object, **kwargs: object) -> Future[object]:  # type: ignore[override]
        failed: Future[object] = Future()
        failed.set_exception(BrokenProcessPool("a worker died"))
        return failed


def test_chunks_whose_worker_died_are_drawn_here() -> None:
    jobs = _jobs()[:12]
    with BuildPool(2, PoolTuning(draw_min_formulas=1), _DeadWorkers) as pool:
        drawn = list(drawing.draw_all(jobs, time_limit=30, pool=pool))
    assert drawn == [drawing._draw_one(job, time_limit=30) for job in jobs]
