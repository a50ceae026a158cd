"""The parse makes no reference cycle, so the collector may rest during it (``parse.collector``)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from ankigen.parse import parse_file, parse_text
from ankigen.parse.collector import collector_paused
from tests.conftest import ROOT
from tests.perf.parallel_support import bank, benchmark_bank

#: Every kind of content the tests hold: the seed, the parse fixtures, hostile and bad input.
FILES = sorted(
    [
        *(ROOT / "content").glob("*.md"),
        *(ROOT / "tests" / "parse" / "fixtures").glob("*.md"),
        *(ROOT / "tests" / "hostile" / "cases").glob("*/content/*.md"),
        *(ROOT / "tests" / "reliability" / "bad_input").glob("*/content/*.md"),
    ]
)


def _cyclic_garbage_of(parse: object) -> int:
    """The objects in reference cycles that ``parse()`` left unreachable."""
    gc.collect()
    gc.disable()
    try:
        parse()  # type: ignore[operator]
    finally:
        found = gc.collect()
        gc.enable()
    return found


def test_the_files_are_found() -> None:
    assert len(FILES) > 40


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_parsing_a_file_makes_no_cyclic_garbage(path: Path) -> None:
    assert _cyclic_garbage_of(lambda: parse_file(path, path.parent)) == 0


@pytest.mark.parametrize("text", [bank(30), benchmark_bank(1000)], ids=["bank", "benchmark"])
def test_parsing_a_big_bank_makes_no_cyclic_garbage(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bank.md"
    assert _cyclic_garbage_of(lambda: parse_text(text, path, tmp_path, "bank.md")) == 0


def test_the_collector_is_as_it_was_after_a_pause() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # only the outer pause turns it back on
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # one turned off by someone else stays off
    finally:
        gc.enable()


def test_a_failing_parse_still_turns_the_collector_back_on() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a bug in a stage")
    assert gc.isenabled()
