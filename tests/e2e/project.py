"""Build a test project (content/, figures/) into its build/ folder through the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from ankigen.cli.app import main

REPO = Path(__file__).resolve().parents[2]


def build_project(project: Path, *extra: str) -> str:
    """Run ``ankigen build`` on the project's folders; assert success, return stdout."""
    result = CliRunner().invoke(
        main,
        [
            "build",
            str(project / "content"),
            "--figures",
            str(project / "figures"),
            "--out",
            str(project / "build"),
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def copy_seed_project(root: Path) -> Path:
    """A copy of the repository's content/ and figures/ under ``root``."""
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "figures", root / "figures")
    return root
