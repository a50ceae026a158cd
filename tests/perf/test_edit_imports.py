"""An edit rebuild imports only what it uses: the checker's syntax tree loads when a
check runs, not with the check stage, and ``init``, ``preview`` and ``watch`` load their
modules when they run, not with the command line."""

from __future__ import annotations

from tests.import_probe import loads


def test_the_check_stage_loads_no_syntax_tree_until_a_check_runs() -> None:
    assert not loads("ankigen.check", "ankigen.check._ast")
    assert not loads("ankigen.commands.build", "ankigen.check._ast")


def test_a_build_loads_none_of_the_authoring_commands() -> None:
    for command in ("ankigen.commands.preview", "ankigen.commands.init", "ankigen.commands.watch"):
        assert not loads("ankigen.cli.app", command), command
