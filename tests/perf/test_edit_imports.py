"""An edit rebuild imports only what it uses: the checker's syntax tree loads when a
check runs, not with the check stage."""

from __future__ import annotations

from tests.import_probe import loads


def test_the_check_stage_loads_no_syntax_tree_until_a_check_runs() -> None:
    assert not loads("ankigen.check", "ankigen.check._ast")
    assert not loads("ankigen.commands.build", "ankigen.check._ast")
