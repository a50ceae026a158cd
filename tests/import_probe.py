"""What a fresh interpreter loads when it imports one of ankigen's modules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def loads(module: str, heavy: str) -> bool:
    """Whether importing ``module`` (from this checkout's src) also loads ``heavy``."""
    probe = f"import sys, {module}; print({heavy!r} in sys.modules)"
    ran = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    return ran.stdout.strip() == "True"
