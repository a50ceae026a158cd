"""The ``ankigen`` script's module imports no command until it runs (``ankigen.cli.run``).

A worker of the build's pool is a spawned interpreter that imports the main
module again (the ``ankigen`` script, or ``ankigen.__main__``) before its
work: importing every command there would cost each worker about 0.3 s of
CPU more than its work needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ankigen import __version__
from ankigen.cli import run

_PROBE = """
import json, sys
import {module}
print(json.dumps(sorted(name for name in sys.modules if name.startswith("ankigen."))))
"""


def _imported_by(module: str) -> list[str]:
    probe = _PROBE.format(module=module)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    names: list[str] = json.loads(done.stdout)
    return names


def test_the_entry_modules_import_no_command() -> None:
    for module in ("ankigen.cli", "ankigen.__main__"):
        imported = _imported_by(module)
        assert "ankigen.cli" in imported
        assert not [name for name in imported if name.startswith("ankigen.commands")]
        assert "ankigen.cli.app" not in imported


def test_python_m_ankigen_runs_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ankigen", "--version"], capture_output=True, text=True, check=True
    )
    assert __version__ in done.stdout


def test_the_installed_script_runs_the_command_line() -> None:
    script = Path(sys.executable).with_name("ankigen")
    assert script.is_file(), "the project is installed (pip install -e .)"
    assert "ankigen.cli import run" in script.read_text("utf-8")
    done = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    assert __version__ in done.stdout


def test_run_calls_the_click_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["ankigen", "--version"])
    with pytest.raises(SystemExit) as exited:
        run()
    assert exited.value.code == 0
