"""The benchmark's generated question bank, for tests that want a big, realistic deck."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def generated_bank(items: int) -> str:
    """The markdown of ``benchmarks/bench.py --write-bank ITEMS`` (the same for the same
    count: the generator is seeded)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--write-bank", str(items)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
