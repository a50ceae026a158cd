"""The build's one process pool: it draws formula images and parses big files (issue 21).

* **One per build**, made by ``commands/build.py`` and passed to the stage
  that sends it work (``RenderSettings.pool``); no process starts until work
  is sent. ``-j N`` (``cpus.py``) sizes it: at most N workers; ``-j 1`` gives
  no pool (``for_jobs``).
* **Parsing a big file**: one worker parses a file's sections from the last
  one back while the build's process parses from the first one on
  (``parse.pooled``), for files with at least ``parse_min_chars`` to parse;
  a spawned worker costs about 0.3 s of CPU to start, so a smaller file is
  parsed in the build's process alone (``benchmarks/README.md``).
* **Spawned**, from the standard library's ``concurrent.futures``: fresh
  interpreters, each importing what its work needs (about 0.45 s of CPU).
  V8 does not survive a fork (its threads stay behind), so a forked worker
  could not draw.
* **Interrupts** are the build's: a worker ignores Ctrl-C (a terminal sends
  it to the whole group), and the build, unwinding, leaves the ``with``
  block, which drops the work not started and waits for the rest. A worker
  keeps SIGTERM's default: ``concurrent.futures`` ends the workers of a broken
  pool with SIGTERM and then waits for them, so a worker that ignored it
  would hang the build (``start_worker``).
* **A worker that dies** breaks the executor: the work it held fails with
  ``BrokenProcessPool`` (the drawing does it in the build's process) and the
  next submission starts a new executor.
* **Thresholds** are fields of ``PoolTuning`` (tests lower them), not globals.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import resource_tracker
from typing import ParamSpec, TypeVar

from ankigen.build.memory import map_big_allocations
from ankigen.build.timelimit import interrupts_held, release_interrupts

__all__ = ["DEFAULT_POOL_TUNING", "BuildPool", "PoolTuning", "spawned_executor", "start_worker"]

P = ParamSpec("P")
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class PoolTuning:
    """When work goes to the pool, and in what pieces: trades of speed, never of bytes
    (``tests/render/test_drawing_pool.py`` compares pooled and serial drawing)."""

    #: Formula images below which they are drawn in the build's process: a worker starts
    #: its own V8 and MathJax (about half a second, some 200 formulas' drawing).
    draw_min_formulas: int = 400
    #: Formulas sent to a worker at once, at most: a few tens of milliseconds of drawing.
    draw_max_chunk: int = 8
    #: Aim for at least this many chunks per worker, so the work ends close together.
    draw_chunks_per_worker: int = 32
    #: Characters of sections to parse below which a file is parsed in the build's process
    #: alone: a worker costs about 0.3 s of CPU to start (its imports), some 500 KB of parsing.
    parse_min_chars: int = 512_000
    #: Characters of sections this process parses between two looks at the worker: about
    #: 10 ms of parsing, so the two end close together (``parse.pooled``).
    parse_chunk_chars: int = 16_000
    #: Chunks sent to the worker at once, at least: its first piece (it may still be
    #: starting), and the last ones; in between it takes a third of what is left, so it
    #: waits for work a few times only (each wait is a round trip, tens of milliseconds).
    parse_chunks_sent: int = 4
    #: Characters of sections sent to the worker at once, at most: its memory grows with
    #: the biggest piece it parsed (its records, and the message that brings them back).
    parse_piece_chars: int = 2_000_000
    #: Characters of sections to parse from which the worker that parsed some is ended once
    #: the parse is done: it keeps the memory the parse used (about 95 MB at 100,000
    #: items), more than a fresh worker costs to start (its imports) should drawing need one.
    parse_rest_chars: int = 8_000_000


#: The thresholds a build uses unless told otherwise.
DEFAULT_POOL_TUNING = PoolTuning()


def _each(work: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """In a worker: ``work`` of each item of a chunk."""
    return [work(item) for item in items]


def start_worker() -> None:
    """In a new worker: Ctrl-C is the build's; SIGTERM ends the worker (the pool's own
    way to end it); both let through again after ``interrupts_held``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    release_interrupts()
    map_big_allocations()  # a worker's memory counts in the build's too


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker before interrupts are held.

    The tracker starts with the first spawned process, and starting it lets
    Ctrl-C and SIGTERM through again on this thread (it blocks, then unblocks
    them): started inside ``interrupts_held``, it would let a worker be born
    with them open, and an interrupt in its first moments would print a
    traceback (``tests/reliability/test_outside_failures.py``).
    """
    if os.name == "posix":
        resource_tracker.ensure_running()


def spawned_executor(workers: int) -> Executor:
    """A process pool of ``workers`` fresh interpreters that leave Ctrl-C to the build."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
    )


class BuildPool:
    """Up to ``workers`` processes the build sends work to; use it in a ``with`` block."""

    def __init__(
        self,
        workers: int,
        tuning: PoolTuning = DEFAULT_POOL_TUNING,
        start: Callable[[int], Executor] = spawned_executor,
    ) -> None:
        """``start(workers)`` makes the executor, when work is first sent (tests swap it)."""
        self.workers = workers
        self.tuning = tuning
        self._start = start
        self._executor: Executor | None = None

    @classmethod
    def for_jobs(cls, jobs: int, tuning: PoolTuning = DEFAULT_POOL_TUNING) -> BuildPool | None:
        """The pool of a build of ``jobs`` processes (None for one: no worker at all)."""
        return cls(jobs, tuning) if jobs > 1 else None

    def __enter__(self) -> BuildPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Run ``work(*args, **kwargs)`` in a worker; a new executor if the last one broke."""
        if self._executor is None:
            _start_resource_tracker()
        with interrupts_held():  # a worker may be started here
            try:
                return self._executor_now().submit(work, *args, **kwargs)
            except BrokenProcessPool:  # a worker died earlier: its work was done elsewhere
                self.close()
                return self._executor_now().submit(work, *args, **kwargs)

    def draw_chunk(self, count: int) -> int:
        """Formulas sent at a time when ``count`` are drawn: small, so no worker is left
        with a long tail while the others wait."""
        per_worker = count // (self.workers * self.tuning.draw_chunks_per_worker)
        return max(1, min(self.tuning.draw_max_chunk, per_worker))

    def map(self, work: Callable[[T], R], items: Sequence[T], chunk: int) -> list[Future[list[R]]]:
        """``work`` of each item in workers, ``chunk`` items at a time: the chunks' futures,
        in order (cancelling one drops its chunk if no worker has started it)."""
        return [
            self.submit(_each, work, items[at : at + chunk]) for at in range(0, len(items), chunk)
        ]

    def close(self) -> None:
        """Drop the work not started, wait for the rest, and end the workers."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(cancel_futures=True)

    def _executor_now(self) -> Executor:
        if self._executor is None:
            self._executor = self._start(self.workers)
        return self._executor
