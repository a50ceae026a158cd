"""Only ``ankigen watch`` loads watchfiles: every other command starts without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import watchfiles

from ankigen.commands.watch_filter import InputsFilter

SRC = Path(__file__).resolve().parents[2] / "src"


def test_the_command_line_loads_no_watchfiles() -> None:
    probe = "import sys, ankigen.cli; print('watchfiles' in sys.modules)"
    ran = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    assert ran.stdout.strip() == "False"


def test_the_filter_ignores_the_build_output_and_scratch_files(tmp_path: Path) -> None:
    out = tmp_path / "build"
    keep = InputsFilter(out, tmp_path / "preview")
    added = watchfiles.Change.added
    assert keep(added, str(tmp_path / "content" / "bank.md"))
    assert not keep(added, str(out / "bank.apkg"))
    assert not keep(added, str(tmp_path / "content" / ".bank-1a2b.tmp"))
    assert not keep(added, str(tmp_path / "preview" / "bank.html"))
