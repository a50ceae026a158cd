"""A memo's values past its budget wait in a scratch file: the same decks and diagnostics.

``CacheTuning.held_values`` (``cache.kept``) trades memory for a scratch file,
never bytes: a bank built with no value held in memory (every section and
note record written to the scratch file as it comes) gives the decks, the
diagnostics and the cache rows of a build that holds them all, cold and warm.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ankigen.cache import STORE_NAME, CacheTuning, Store
from ankigen.cache.memo import stored_values
from ankigen.cli.options import resolve
from ankigen.commands.build import run
from tests.bench_bank import generated_bank


def _build(project: Path, held_values: int) -> tuple[str, bytes]:
    """The diagnostics and deck of one build in ``project`` (its cache kept)."""
    options = resolve((), math="mathjax")
    tuning = CacheTuning(held_values=held_values)
    result = run(dataclasses.replace(options, cache_tuning=tuning))
    deck = project / "build" / "bank.apkg"
    written = deck.read_bytes()
    deck.unlink()  # the next build is warm: every cache reused, the deck written again
    return "\n".join(d.format() for d in result.diagnostics), written


def test_records_in_a_scratch_file_build_what_records_in_memory_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    bank = generated_bank(300)
    builds, rows = [], []
    for name, held in (("memory", 1 << 30), ("scratch", 0)):
        project = tmp_path / name
        (project / "content").mkdir(parents=True)
        (project / "content" / "bank.md").write_text(bank, "utf-8")
        monkeypatch.chdir(project)
        builds.append([_build(project, held) for _ in ("cold", "warm")])
        store = Store(project / "build" / ".cache")
        rows.append([stored_values(store, kind, "bank") for kind in ("sections", "notes")])
        assert (project / "build" / ".cache" / STORE_NAME).exists()
    assert builds[0] == builds[1]
    assert builds[0][0] == builds[0][1]  # the warm build is the cold one
    assert rows[0] == rows[1] and all(rows[0])
