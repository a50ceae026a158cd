"""A big file parsed partly in a pool worker gives what a serial parse gives (``parse.pooled``)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import ClassVar

from ankigen.build.pool import BuildPool, PoolTuning
from ankigen.cache import Store
from ankigen.parse import ParseResult, parse_file, pooled
from ankigen.parse.section_cache import SectionCache, SectionResult, read_record, section_cache
from ankigen.parse.section_text import SectionText, SomeSections
from ankigen.parse.sections import cut_sections, line_count, split_sections

#: Every section goes through the meeting of this process and the worker.
EVERY_FILE = PoolTuning(parse_min_chars=1, parse_chunk_chars=1, parse_chunks_sent=2)


def _bank(tmp_path: Path, sections: int = 40) -> Path:
    """A file of many sections, with a formula, a cloze, a check and a problem in each."""
    parts = ["# Bank\n"]
    for n in range(sections):
        parts.append(
            f"## Part {n}\n\nWhat is {n} squared? ::: {n * n}, or $n^2$ for n = {n}.\n\n"
            f"```check\nassert `{n * n}` == {n}^2\n```\n\n"
            f"The {{{{c1::cloze {n}}}}} text.\n\nBroken {n} :::\n"
        )
    path = tmp_path / "bank.md"
    path.write_text("\n".join(parts), "utf-8")
    return path


def _parse(path: Path, pool: BuildPool | None, cache: SectionCache | None = None) -> ParseResult:
    return parse_file(path, path.parent, "bank.md", cache=cache, pool=pool)


def test_a_parse_in_a_spawned_worker_equals_the_serial_parse(tmp_path: Path) -> None:
    path = _bank(tmp_path)
    assert len(split_sections(path.read_text("utf-8")) or ()) > 40
    with BuildPool(2, EVERY_FILE) as pool:
        pooled = _parse(path, pool)
    serial = _parse(path, None)
    assert pooled == serial
    assert serial.deck is not None and len(serial.deck.items) == 120  # 3 a section
    assert any(d.is_error for d in serial.diagnostics)  # the broken items, in order


def test_the_records_a_worker_sends_are_those_a_serial_parse_stores(tmp_path: Path) -> None:
    path = _bank(tmp_path)
    pooled_cache = section_cache(Store(tmp_path / "pooled"), "bank")
    serial_cache = section_cache(Store(tmp_path / "serial"), "bank")
    with BuildPool(2, EVERY_FILE) as pool:
        pooled = _parse(path, pool, pooled_cache)
    assert pooled == _parse(path, None, serial_cache)
    assert len(serial_cache.kept) > 40
    # The same keys and values (marshal's bytes may differ: it writes back-references to
    # objects held twice, which depends on how each process made them).
    assert _values(pooled_cache) == _values(serial_cache)


def _values(cache: SectionCache) -> dict[bytes, SectionResult]:
    return {key: read_record(stored, 0) for key, stored in cache.kept.items()}


class _Recorded(ThreadPoolExecutor):
    """A pool of threads that records how many sections each piece of work held."""

    pieces: ClassVar[list[int]] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.pieces.append(len(args[1]))
        return super().submit(fn, *args, **kwargs)


def test_the_worker_takes_pieces_from_the_back_one_at_a_time(tmp_path: Path) -> None:
    path = _bank(tmp_path)
    sections = len(split_sections(path.read_text("utf-8")) or ())
    _Recorded.pieces = []
    with BuildPool(2, EVERY_FILE, _Recorded) as pool:
        assert _parse(path, pool) == _parse(path, None)
    pieces = _Recorded.pieces
    assert pieces[0] == 2  # a few chunks while the worker may still be starting
    # then a third of what is left at most, never less than a few
    assert all(2 <= size <= sections // 3 for size in pieces[1:-1])
    assert sum(pieces) < sections - 1  # this process parsed some too


class _Counted(ThreadPoolExecutor):
    """A pool of threads that counts the executors the build's pool made."""

    made: ClassVar[int] = 0

    def __init__(self, workers: int) -> None:
        type(self).made += 1
        super().__init__(workers)


def test_a_worker_that_parsed_much_ends_with_the_parse(tmp_path: Path) -> None:
    """Past ``parse_rest_chars`` the worker goes once its part is back (it keeps the memory
    of its parse); below it, the worker stays for the build's next work (drawing)."""
    path = _bank(tmp_path)
    for rest_chars, executors in ((1, 2), (10**9, 1)):
        _Counted.made = 0
        tuning = dataclasses.replace(EVERY_FILE, parse_rest_chars=rest_chars)
        with BuildPool(2, tuning, _Counted) as pool:
            assert _parse(path, pool) == _parse(path, None)
            assert pool.submit(len, "next work").result() == 9
        assert _Counted.made == executors


class _DeadWorkers(ThreadPoolExecutor):
    """Every piece fails as the piece of a worker that died does (``BrokenProcessPool``)."""

    def submit(self, *args: object, **kwargs: object) -> Future[object]:  # type: ignore[override]
        failed: Future[object] = Future()
        failed.set_exception(BrokenProcessPool("a worker died"))
        return failed


def test_what_a_dead_worker_held_is_parsed_here(tmp_path: Path) -> None:
    path = _bank(tmp_path)
    with BuildPool(2, EVERY_FILE, _DeadWorkers) as pool:
        assert _parse(path, pool) == _parse(path, None)


def test_a_small_file_starts_no_worker(tmp_path: Path) -> None:
    path = _bank(tmp_path, sections=3)

    def no_executor(workers: int) -> Executor:
        raise AssertionError("no worker for a small file")

    with BuildPool(2, PoolTuning(), no_executor) as pool:
        assert _parse(path, pool) == _parse(path, None)


class _Title(str):
    """A str subclass: a value the cache's codec does not write."""


def test_a_result_without_a_record_comes_back_as_it_is() -> None:
    result = SectionResult(_Title("Part"), (), (), (), ())
    sent = pooled._wired(result, 3)
    assert sent is result
    assert pooled._unwired(sent, 3) == (result, None)


def test_some_sections_are_the_files_sections_cut_when_asked_for(tmp_path: Path) -> None:
    text = _bank(tmp_path, sections=5).read_text("utf-8")
    cut = cut_sections(text)
    assert cut is not None
    whole = SectionText(text, *cut, line_count(text))
    every = split_sections(text) or []
    some = SomeSections(whole, [1, 3, 4])
    assert len(some) == 3 and list(some) == [every[1], every[3], every[4]]
    assert some[1:] == [every[3], every[4]]
    assert [some.start(n) for n in range(3)] == [every[n].start for n in (1, 3, 4)]
    assert some.chars() == sum(len(every[n].text) for n in (1, 3, 4))
