"""`-j/--jobs` governs the formula-drawing pool too; the images start drawing before the checks.

``-j 1`` draws every image in the build's own process, ``-j N`` in a pool of
N workers (default: every usable CPU); the deck is the same bytes whatever N
is. The pool is started right after parsing, so its workers draw while the
build checks the decks, and it is stopped when the build fails on the way.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ankigen.build import reuse
from ankigen.build.pool import DEFAULT_POOL_TUNING, BuildPool, PoolTuning, start_worker
from ankigen.cli.app import main
from ankigen.commands import build as build_command
from tests.perf.parallel_support import benchmark_bank


class _Pools:
    """Every executor a build's pool starts: its size, and how many are not shut down."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.open = 0

    def executor(self, workers: int) -> _RecordedExecutor:
        self.sizes.append(workers)
        self.open += 1
        return _RecordedExecutor(self, workers)


class _RecordedExecutor(ProcessPoolExecutor):
    """A real spawned pool (as ``build.pool.spawned_executor``) that says when it is shut down."""

    def __init__(self, pools: _Pools, workers: int) -> None:
        super().__init__(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
        )
        self._pools = pools

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pools.open -= 1
        super().shutdown(wait, cancel_futures=cancel_futures)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> _Pools:
    recorded = _Pools()

    class RecordedPool(BuildPool):
        """The build's pool, its executors recorded; the bank below has about 50
        formulas, and a pool pays from 400 (its workers start V8): drawn from 24."""

        @classmethod
        def for_jobs(cls, jobs: int, tuning: PoolTuning = DEFAULT_POOL_TUNING) -> BuildPool | None:
            low = PoolTuning(draw_min_formulas=24)
            return BuildPool(jobs, low, recorded.executor) if jobs > 1 else None

    monkeypatch.setattr(build_command, "BuildPool", RecordedPool)
    return recorded


def _project(root: Path) -> Path:
    (root / "content").mkdir(parents=True)
    # 200 items of the benchmark's bank: about 50 distinct formulas, enough for a pool
    (root / "content" / "bank.md").write_text(benchmark_bank(200), "utf-8")
    (root / "pyproject.toml").write_text("[tool.ankigen]\n", "utf-8")
    return root


def _build(out: str, *options: str) -> Result:
    args = ["build", "--math", "image", "--out", out, *options]
    return CliRunner().invoke(main, args, catch_exceptions=False)


def test_one_job_draws_here_and_two_draw_in_two_workers_the_same_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: _Pools
) -> None:
    monkeypatch.chdir(_project(tmp_path))
    one = _build("out1", "-j", "1")
    assert one.exit_code == 0, one.output
    assert pools.sizes == []  # no pool: every image drawn in this process
    two = _build("out2", "--jobs", "2")
    assert two.exit_code == 0, two.output
    assert pools.sizes == [2] and pools.open == 0
    assert "images: 0 rendered" not in two.output
    assert (tmp_path / "out1" / "bank.apkg").read_bytes() == (
        tmp_path / "out2" / "bank.apkg"
    ).read_bytes()


def test_without_jobs_every_usable_cpu_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: _Pools
) -> None:
    monkeypatch.chdir(_project(tmp_path))
    monkeypatch.setattr("ankigen.build.cpus.usable_cpus", lambda: 3)
    result = _build("out")
    assert result.exit_code == 0, result.output
    assert pools.sizes == [3]


def test_the_workers_draw_while_the_decks_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: _Pools
) -> None:
    monkeypatch.chdir(_project(tmp_path))
    checking = reuse.check_source
    open_while_checking: list[int] = []

    def check_source(*args: Any, **kwargs: Any) -> Any:
        open_while_checking.append(pools.open)
        return checking(*args, **kwargs)

    monkeypatch.setattr("ankigen.commands.build.check_source", check_source)
    result = _build("out", "-j", "2")
    assert result.exit_code == 0, result.output
    assert open_while_checking == [1]


def test_a_build_stopped_while_checking_stops_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pools: _Pools
) -> None:
    monkeypatch.chdir(_project(tmp_path))

    def check_source(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("ankigen.commands.build.check_source", check_source)
    result = _build("out", "-j", "2")  # Ctrl-C while checking
    assert result.exit_code != 0
    assert pools.sizes == [2] and pools.open == 0
    assert not (tmp_path / "out" / "bank.apkg").exists()
