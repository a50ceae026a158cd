"""Formula images drawn by the worker pool are the images one process draws.

The pool (``render/_drawing_pool.py``) warms both engines up in the parent and
forks workers that share its loaded fonts: the images must not depend on
which process drew them, in what order, or in which run. Workers loading
glyphs through inherited FT2Font objects at once would read each other's
bytes (FreeType then fails with "too many hints"): the many formulas here
make that race likely if the fork handler did not drop those fonts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ankigen import cpus
from ankigen.render import _drawing_pool as drawing_pool
from ankigen.render import _formula_drawing as drawing
from ankigen.render._formula_drawing import render_formula

_TERMS = ["x", r"\alpha", r"\frac{1}{n}", r"\sqrt{k}", r"\theta_t", "e^{-t}", r"\sigma^2"]


def _jobs() -> list[drawing.FormulaJob]:
    jobs = []
    for i, a in enumerate(_TERMS):
        for j, b in enumerate(_TERMS):
            jobs.append(drawing.FormulaJob(f"{a} + {b} = {i * 7 + j}", display=(i + j) % 2 == 0))
    jobs.append(drawing.FormulaJob(r"\sum_{i=1}^{n} x_i", display=True))  # ziamath
    jobs.append(drawing.FormulaJob(r"a + [\ldots] = c", display=False, highlight=(r"[\ldots]",)))
    return jobs


def test_pool_draws_what_one_process_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _jobs()
    assert len(jobs) >= drawing._POOL_THRESHOLD  # the pool is used
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 2)
    pooled = list(drawing.draw_all(jobs, time_limit=30))
    alone = [drawing._draw_one(job, time_limit=30) for job in jobs]
    assert not [o for o in pooled if isinstance(o, drawing.DrawFailure)]
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


_WARM_UP = """
import sys
from ankigen.render import _drawing_pool
_drawing_pool.warm_up(highlighted=sys.argv[1] == "yes")
print("matplotlib.backends.backend_agg" in sys.modules)
"""


@pytest.mark.parametrize(("highlighted", "loaded"), [("yes", "True"), ("no", "False")])
def test_a_warm_up_for_cloze_colours_loads_what_colouring_needs(
    highlighted: str, loaded: str
) -> None:
    # Colouring goes through matplotlib's own parser, which imports the Agg
    # backend: done once before the fork instead of once in every worker.
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": str(src)}
    run = subprocess.run(
        [sys.executable, "-c", _WARM_UP, highlighted],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert run.stdout.strip() == loaded
