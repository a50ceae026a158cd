"""Sections parsed in forked workers give the serial parse's deck, diagnostics and cache.

The thresholds that keep small files serial are lowered here
(``workers_for_everything``), so every fixture with two sections or more is
really parsed by workers, one section per chunk.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ankigen.cache import Store
from ankigen.parse import ParseResult, SectionCache, parallel, parse_file, parse_text, workers
from ankigen.parse.sections import split_sections
from tests.conftest import ROOT
from tests.perf.parallel_support import bank, benchmark_bank, workers_for_everything

FIXTURES = sorted((ROOT / "tests" / "parse" / "fixtures").glob("*.md"))
SEED = ROOT / "content" / "distributed-training.md"


def _parse(text: str, jobs: int, cache: SectionCache | None = None) -> ParseResult:
    return parse_text(text, Path("bank.md"), Path("."), "bank.md", cache=cache, jobs=jobs)


def _spy_pool(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of workers of every pool started from now on."""
    started: list[int] = []
    share = workers.share_chunks

    def spy(count: int, workers: int, *rest: object) -> None:
        started.append(workers)
        share(count, workers, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "share_chunks", spy)
    return started


@pytest.mark.parametrize("jobs", [2, 3])
def test_every_fixture_and_the_seed_parse_as_serially(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    workers_for_everything(monkeypatch)
    started = _spy_pool(monkeypatch)
    spread = 0
    for path in [*FIXTURES, SEED]:
        serial = parse_file(path, path.parent, path.name, jobs=1)
        assert parse_file(path, path.parent, path.name, jobs=jobs) == serial, path.name
        spread += len(split_sections(path.read_text("utf-8")) or []) > 2
    assert spread > 5 and len(started) == spread  # the fixtures with sections used workers


@pytest.mark.parametrize("jobs", [2, 4])
def test_a_bank_parses_as_serially_with_the_same_cache_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, jobs: int
) -> None:
    workers_for_everything(monkeypatch)
    started = _spy_pool(monkeypatch)
    text = bank(40)
    files = {}
    for run in (1, jobs):
        with SectionCache(Store(tmp_path), str(run)) as cache:
            result = _parse(text, run, cache)
            cache.save()
        files[run] = Store(tmp_path).scope("sections", str(run))
        assert result == _parse(text, 1)
    assert files[jobs] == files[1]
    assert started == [jobs - 1]
    assert any(d.code == "AG107" for d in result.diagnostics)  # found across sections


def test_an_edit_reuses_the_cache_and_parses_the_rest_in_workers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    workers_for_everything(monkeypatch)
    text = bank(30)
    edited = text.replace("## Section 4\n", "## Section 4\n\nNew ::: item\n").replace(
        "flows backwards.", "flows back.", 9
    )
    saved = {}
    for jobs in (1, 2):
        with SectionCache(Store(tmp_path), str(jobs)) as cache:
            _parse(text, jobs, cache)
            cache.save()
        with SectionCache(Store(tmp_path), str(jobs)) as cache:
            result = _parse(edited, jobs, cache)
            cache.save()
            hits = cache.hits
        saved[jobs] = (result, hits, Store(tmp_path).scope("sections", str(jobs)))
    assert saved[2] == saved[1]
    assert 0 < saved[2][1] < 30  # some sections came from the cache, some were parsed
    assert saved[2][0] == _parse(edited, 1)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=12))
def test_any_mix_of_sections_parses_as_serially(
    monkeypatch: pytest.MonkeyPatch, kinds: list[int]
) -> None:
    workers_for_everything(monkeypatch)
    pieces = ["q ::: a\n", "Broken :::\n", "The {{c1::x}} y.\n", "$x$ ::: $$y$$\n", "text\n"]
    text = "".join(f"## S{n}\n\n{pieces[kind]}\n" for n, kind in enumerate(kinds))
    assert _parse(text, 3) == _parse(text, 1)


def test_a_worker_that_raises_leaves_its_sections_to_the_parent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workers_for_everything(monkeypatch)
    parent = os.getpid()
    pack = parallel._Pickles.pack

    def fails_in_workers(self: parallel._Pickles, results: list[object]) -> bytes:
        if os.getpid() != parent:
            raise RuntimeError("a bug in a worker")
        return pack(self, results)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel._Pickles, "pack", fails_in_workers)
    started = _spy_pool(monkeypatch)
    text = bank(12)
    assert _parse(text, 3) == _parse(text, 1)
    assert started == [2]


def test_a_worker_that_dies_leaves_its_sections_to_the_parent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    workers_for_everything(monkeypatch)
    parent = os.getpid()
    pack = parallel._Records.pack

    def dies_in_workers(self: parallel._Records, results: list[object]) -> bytes:
        if os.getpid() != parent:
            os._exit(9)  # killed mid-chunk, without a word
        return pack(self, results)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel._Records, "pack", dies_in_workers)
    started = _spy_pool(monkeypatch)
    text = bank(12)
    with SectionCache(Store(tmp_path), "s") as cache:
        assert _parse(text, 2, cache) == _parse(text, 1)
        cache.save()
    with SectionCache(Store(tmp_path), "s") as cache:
        _parse(text, 1, cache)
        assert cache.hits == len(split_sections(text) or [])  # all cached, by the parent
    assert started == [1]


def test_a_bug_that_the_serial_parse_has_too_still_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workers_for_everything(monkeypatch)
    from ankigen import parse

    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("a real bug")

    monkeypatch.setattr(parse, "freeze_section", broken)
    with pytest.raises(ZeroDivisionError, match="a real bug"):
        _parse(bank(6), 2)


def test_the_benchmark_bank_uses_workers_at_the_real_thresholds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = _spy_pool(monkeypatch)
    text = benchmark_bank(400)  # 8 sections, well above MIN_CHARS
    assert len(text) > parallel.MIN_CHARS
    assert _parse(text, 2) == _parse(text, 1)
    assert started == [1]


def test_a_small_file_is_parsed_without_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    started = _spy_pool(monkeypatch)
    result = _parse(bank(6), 2)  # far below MIN_CHARS
    assert started == [] and result == _parse(bank(6), 1)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_every_chunk_is_done_once_even_when_a_worker_dies(count: int) -> None:
    parent = os.getpid()
    signal_read, signal_write = os.pipe()  # a worker says here that it finished a chunk
    here: list[int] = []
    there: dict[int, bytes] = {}

    def work_here(number: int) -> None:
        if not here:
            os.read(signal_read, 1)  # wait until a worker has done a chunk: no schedule
        here.append(number)

    def work_there(number: int) -> bytes:
        if number == 7:
            os._exit(3)  # whichever worker takes chunk 7 dies with it
        os.write(signal_write, b"x")
        return f"chunk {number} in {os.getpid()}".encode()

    try:
        workers.share_chunks(40, count, work_here, work_there, there.__setitem__)
    finally:
        os.close(signal_read)
        os.close(signal_write)
    assert sorted([*here, *there]) == list(range(40))
    assert there and 7 in here  # workers did chunks; the one that died, the parent did
    assert all(v.startswith(f"chunk {n} in ".encode()) for n, v in there.items())
    assert all(str(parent).encode() not in v for v in there.values())


def test_more_sections_than_chunks_are_grouped(monkeypatch: pytest.MonkeyPatch) -> None:
    workers_for_everything(monkeypatch)
    counts: list[int] = []
    share = workers.share_chunks

    def spy(count: int, *rest: object) -> None:
        counts.append(count)
        share(count, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel, "share_chunks", spy)
    many = range(workers.MAX_CHUNKS + 50)
    text = "".join(f"## S{n}\n\nQuestion {n} ::: answer\n\n" for n in many)
    assert _parse(text, 2) == _parse(text, 1)
    assert counts and counts[0] <= workers.MAX_CHUNKS
