"""Loading code costs a deck's check budget nothing (``Budget.excluded``).

The checker imports sympy on first need, inside a deck's check budget; without
this, whether the first slow statement "gave up" or was "not checked" depended
on whether an earlier test had already imported sympy.
"""

from __future__ import annotations

import time

import pytest

from ankigen.build.timelimit import Budget


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_time_inside_excluded_is_not_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(time, "monotonic", clock)  # the module timelimit reads
    budget = Budget(1.0)
    with budget.excluded():
        clock.now += 5.0  # a slow import
    assert budget.remaining() == pytest.approx(1.0)
    clock.now += 0.25  # real work
    assert budget.remaining() == pytest.approx(0.75)
