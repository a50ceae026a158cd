"""Numbered chunks of work shared between this process and forked workers.

The parse stage hands out a file's sections in chunks (``parse.parallel``);
this module only knows chunk numbers and bytes:

* **Workers** are forked (Linux), so they start with everything this process
  has loaded and read: no imports, no pickled arguments.
* **Claims**: every chunk number is written into one pipe before the workers
  are forked, and its writing end closed. This process and the workers read
  their next chunk from it, four bytes at a time (the kernel gives each read
  to one reader), until it is empty. So whoever is free takes the next chunk:
  a worker that the machine's other load slows down simply takes fewer, and
  nobody waits for anybody to be handed work.
* **Answers**: each worker writes one message per chunk into a pipe of its
  own (its number, whether it worked, the bytes of its answer); this process
  reads what is there between two chunks of its own, and at the end reads
  until every worker has closed its pipe.
* **Failure**: a chunk that a worker claimed and did not answer (it raised,
  died or sent something torn) is done here after the others, as the serial
  parse would; a real bug then raises here, with its traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from ankigen.build.timelimit import ignore_interrupts, interrupts_held

__all__ = ["MAX_CHUNKS", "can_fork", "share_chunks"]

_CLAIM = struct.Struct(">I")
#: At most this many chunks: their numbers (4 bytes each) must fit in the claims pipe
#: before anyone reads it, and Linux guarantees a pipe one page (4096 bytes).
MAX_CHUNKS = 1024
#: An answer's header: chunk number, 1 if it worked (else 0), length of the bytes.
_ANSWER = struct.Struct(">IBQ")
#: Room asked for in a worker's answer pipe, so it seldom waits for this process to read.
_ANSWER_PIPE = 1 << 20


def can_fork() -> bool:
    """Whether workers can be forked here: on Linux (macOS's system libraries do not
    survive a fork without an exec, and Windows has none)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def share_chunks(
    count: int,
    workers: int,
    work_here: Callable[[int], None],
    work_there: Callable[[int], bytes],
    arrived: Callable[[int, bytes], None],
) -> None:
    """Do chunks ``0 .. count-1`` (at most ``MAX_CHUNKS``), each once, here and in workers.

    ``workers`` processes are forked. Here a chunk is done by
    ``work_here(number)``; in a worker by ``work_there(number)``, whose bytes
    are given to ``arrived(number, bytes)`` here. Both callbacks run in this
    process only, chunks in no set order: the caller puts results in place by
    number. A chunk a worker did not answer is done here, by ``work_here``,
    after all the others.
    """
    if count > MAX_CHUNKS:
        raise ValueError(f"at most {MAX_CHUNKS} chunks")
    pool = _Pool()
    try:
        claims = pool.start(count, workers, work_there)
        done: set[int] = set()
        while (number := _claim(claims)) is not None:
            work_here(number)
            done.add(number)
            pool.collect(arrived, done, wait=False)
        pool.collect(arrived, done, wait=True)
        for number in range(count):
            if number not in done:
                work_here(number)
    finally:
        pool.stop()


def _claim(claims: int) -> int | None:
    """The next chunk nobody has taken, None when all are."""
    taken = os.read(claims, _CLAIM.size)
    return _CLAIM.unpack(taken)[0] if len(taken) == _CLAIM.size else None


@dataclass
class _Worker:
    """A forked worker: its process id, this side's end of its answer pipe, what it sent."""

    pid: int
    answers: int
    received: bytearray = field(default_factory=bytearray)


@dataclass
class _Pool:
    """The claims pipe and the forked workers."""

    claims: int = -1
    workers: list[_Worker] = field(default_factory=list)

    def start(self, count: int, workers: int, work_there: Callable[[int], bytes]) -> int:
        """Fill the claims pipe, fork ``workers`` workers; the claims pipe's reading end."""
        read_end, write_end = os.pipe()
        self.claims = read_end
        try:
            os.write(write_end, b"".join(_CLAIM.pack(n) for n in range(count)))
        finally:
            os.close(write_end)  # empty, the pipe reads as ended: nothing is left
        with interrupts_held():  # a worker sets its own handlers before it gets a signal
            for _ in range(workers):
                self.workers.append(self._fork(work_there))
        return read_end

    def _fork(self, work_there: Callable[[int], bytes]) -> _Worker:
        answer_read, answer_write = os.pipe()
        _widen(answer_write)
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            try:
                # Other workers' pipes must close here, or they would never read as ended.
                for fd in (answer_read, *(worker.answers for worker in self.workers)):
                    os.close(fd)
                _serve(self.claims, answer_write, work_there)
            finally:
                os._exit(1)
        os.close(answer_write)
        os.set_blocking(answer_read, False)
        return _Worker(pid, answer_read)

    def collect(self, arrived: Callable[[int, bytes], None], done: set[int], wait: bool) -> None:
        """Pass every complete answer sent so far to ``arrived`` (with ``wait``: every answer
        still to come, until each worker has ended), and add its chunk to ``done``."""
        for worker in self.workers:
            if wait and worker.answers >= 0:
                os.set_blocking(worker.answers, True)
            while worker.answers >= 0:
                try:
                    data = os.read(worker.answers, _ANSWER_PIPE)
                except BlockingIOError:
                    break  # nothing more for now
                if not data:
                    os.close(worker.answers)  # it has ended; anything half-sent is dropped
                    worker.answers = -1
                    break
                worker.received += data
                _answers(worker.received, arrived, done)

    def stop(self) -> None:
        """End every worker (killed if still at work: this process is failing) and reap it."""
        for worker in self.workers:
            if worker.answers >= 0:
                with contextlib.suppress(OSError):
                    os.kill(worker.pid, signal.SIGKILL)
                os.close(worker.answers)
                worker.answers = -1
            with contextlib.suppress(ChildProcessError):
                os.waitpid(worker.pid, 0)
        self.workers = []
        if self.claims >= 0:
            os.close(self.claims)
            self.claims = -1


def _answers(received: bytearray, arrived: Callable[[int, bytes], None], done: set[int]) -> None:
    """Take every complete answer off the front of ``received``."""
    position = 0
    while len(received) - position >= _ANSWER.size:
        number, ok, length = _ANSWER.unpack_from(received, position)
        end = position + _ANSWER.size + length
        if end > len(received):
            break
        if ok:
            arrived(number, bytes(received[position + _ANSWER.size : end]))
            done.add(number)
        position = end
    del received[:position]


def _serve(claims: int, answers: int, work_there: Callable[[int], bytes]) -> None:
    """The worker's loop: claim a chunk, send its answer, until no chunk is left."""
    status = 0
    try:
        ignore_interrupts()  # Ctrl-C and SIGTERM are the parent's: it stops the workers
        with open(answers, "wb") as outbox:
            while (number := _claim(claims)) is not None:
                try:
                    payload, ok = work_there(number), 1
                except Exception:  # the parent does this chunk again, and sees the error
                    payload, ok = b"", 0
                outbox.write(_ANSWER.pack(number, ok, len(payload)))
                outbox.write(payload)
                outbox.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)  # no atexit handlers, no flushing of the parent's buffers


def _widen(fd: int) -> None:
    """Ask for a bigger pipe (Linux), so a worker seldom waits for its answers to be read."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, _ANSWER_PIPE)
    except (ImportError, AttributeError, OSError):
        pass  # the default size works too, with more waiting
