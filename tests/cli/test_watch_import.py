"""Only ``ankigen watch`` loads watchfiles: every other command starts without it."""

from __future__ import annotations

from pathlib import Path

import watchfiles

from ankigen.build.watch_filter import InputsFilter
from tests.import_probe import loads


def test_the_command_line_loads_no_watchfiles() -> None:
    assert not loads("ankigen.cli.app", "watchfiles")


def test_the_filter_ignores_the_build_output_and_scratch_files(tmp_path: Path) -> None:
    out = tmp_path / "build"
    keep = InputsFilter(out, tmp_path / "preview")
    added = watchfiles.Change.added
    assert keep(added, str(tmp_path / "content" / "bank.md"))
    assert not keep(added, str(out / "bank.apkg"))
    assert not keep(added, str(tmp_path / "content" / ".bank-1a2b.tmp"))
    assert not keep(added, str(tmp_path / "preview" / "bank.html"))
