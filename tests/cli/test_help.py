"""Help that teaches: an example and the format guide on every command; shell completion."""

from __future__ import annotations

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_help_has_an_example_and_points_to_the_format(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert f"ankigen {command}" in result.output.split("Example:", 1)[1]
    # the guide ships in the package (ankigen guide); docs/format.md only in the sources
    assert "ankigen guide" in result.output
    assert "docs/format.md" not in result.output


def test_top_level_help_shows_the_authors_loop() -> None:
    result = invoke("--help")
    for command in ("init", "preview", "watch", "build", "check"):
        assert command in result.output


def test_bash_completion_script_comes_from_the_documented_variable() -> None:
    result = CliRunner().invoke(
        main, [], prog_name="ankigen", env={"_ANKIGEN_COMPLETE": "bash_source"}
    )
    assert result.exit_code == 0
    assert "_ankigen_completion" in result.output
    assert "complete -o nosort -F _ankigen_completion ankigen" in result.output
