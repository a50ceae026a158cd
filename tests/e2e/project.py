"""Build a test project (content/, figures/) into its build/ folder through the CLI."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ankigen.cli import main


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
