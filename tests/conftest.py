"""Shared test helpers."""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Regenerate golden files with `UPDATE_GOLDEN=1 pytest`; then review the diff.
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"


#: The session's state folder (``$XDG_STATE_HOME``), removed when the session ends.
_STATE_HOME = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Builds seal their cache rows with this user's key (``ankigen.cache.seal``), kept in
    ``$XDG_STATE_HOME``: the tests keep theirs in a folder of the session, not the home folder.
    """
    state = tempfile.mkdtemp(prefix="ankigen-test-state-")
    config.stash[_STATE_HOME] = state
    os.environ["XDG_STATE_HOME"] = state


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the session's state folder."""
    state = config.stash.get(_STATE_HOME, None)
    if state is not None:
        shutil.rmtree(state, ignore_errors=True)


def compare_golden(actual: str, golden: Path) -> None:
    """Assert ``actual`` equals the golden file (or rewrite it when asked)."""
    if UPDATE_GOLDEN or not golden.exists():
        golden.write_text(actual, "utf-8")
        if not UPDATE_GOLDEN:
            pytest.fail(f"golden file {golden.name} was missing and has been written; review it")
        return
    assert actual == golden.read_text("utf-8")


@pytest.fixture(autouse=True)
def _no_hypothesis_gc_callback() -> Iterator[None]:
    """Hypothesis leaves a garbage-collector callback behind (to time its deadlines). A
    time limit's alarm (``build.timelimit``) that lands inside it is swallowed, and fired
    again, which can land inside pytest's hook for swallowed exceptions or a signal
    handler's restore and break them: no test after a hypothesis test runs with it."""
    yield
    gc.callbacks[:] = [
        c for c in gc.callbacks if "gc_cumulative_time" not in getattr(c, "__qualname__", "")
    ]


@pytest.fixture(autouse=True)
def _fixed_build_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decks built by tests carry a fixed time unless a test sets its own."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
