"""Formula images drawn by the worker pool are the images one process draws.

The pool (``render/_drawing_pool.py``) forks workers that each start their own
V8 and MathJax (an engine inherited through the fork is never used: V8's
threads do not survive it): the images must not depend on which process drew
them, in what order, or in which run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ankigen.build import cpus
from ankigen.render import _drawing_pool as drawing_pool
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


def test_pool_draws_what_one_process_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _jobs()
    assert len(jobs) >= drawing._POOL_THRESHOLD  # the pool is used
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 2)
    pooled = list(drawing.draw_all(jobs, time_limit=30))
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
    assert drawing_pool.chunk_size(2518, 2) == drawing_pool.MAX_CHUNK
    assert drawing_pool.chunk_size(251, 2) == 3
    assert drawing_pool.chunk_size(30, 2) == 1
    assert drawing_pool.worker_count(30, 2) == 2
    assert drawing_pool.worker_count(1, 4) == 1
    assert cpus.usable_cpus() >= 1
