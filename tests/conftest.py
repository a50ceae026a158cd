"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Regenerate golden files with `UPDATE_GOLDEN=1 pytest`; then review the diff.
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"


def compare_golden(actual: str, golden: Path) -> None:
    """Assert ``actual`` equals the golden file (or rewrite it when asked)."""
    if UPDATE_GOLDEN or not golden.exists():
        golden.write_text(actual, "utf-8")
        if not UPDATE_GOLDEN:
            pytest.fail(f"golden file {golden.name} was missing and has been written; review it")
        return
    assert actual == golden.read_text("utf-8")


@pytest.fixture(autouse=True)
def _fixed_build_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decks built by tests carry a fixed time unless a test sets its own."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
