"""The benchmark's drift line: marginal CPU per item, ankigen's over ankdown's.

Sizes run minutes apart on a VM whose speed drifts; ankdown's marginal cost
per item shows the drift, and the ratio takes it out.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_script", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _cold(ankigen: float, ankdown: float) -> dict[str, dict[str, dict[str, float]]]:
    return {"mathjax cold": {"ankigen": {"cpu_s": ankigen}, "ankdown": {"cpu_s": ankdown}}}


def test_a_machine_twice_as_fast_for_the_big_bank_leaves_the_ratio_alone() -> None:
    # ankdown: 100 us an item, then 50 us (the machine sped up); ankigen: 3x that each time.
    sizes = {
        1000: _cold(0.5, 0.2),
        10000: _cold(0.5 + 2.7, 0.2 + 0.9),
        100000: _cold(0.5 + 2.7 + 13.5, 0.2 + 0.9 + 4.5),
    }
    (line,) = _bench()._drift(sizes)
    assert "ankdown 1,000->10,000: 100 us, 10,000->100,000: 50 us" in line
    assert "ankigen 1,000->10,000: 300 us, 10,000->100,000: 150 us" in line
    assert "ankigen ÷ ankdown 3.00x, 3.00x, spread 0%" in line


def test_without_ankdown_there_is_no_drift_line() -> None:
    sizes = {n: {"mathjax cold": {"ankigen": {"cpu_s": n / 1000}}} for n in (1000, 10000, 100000)}
    assert _bench()._drift(sizes) == []
