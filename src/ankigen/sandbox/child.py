"""Run work that may be hostile (a figure script) in a child process killed at its time limit.

Nothing the work does, not even ``except BaseException`` around ``sleep``,
keeps it alive past the limit, and no process it starts outlives it: the
child leads a process group of its own, killed as a whole at the end, and
with a confinement (``ankigen.sandbox.confine``) the work runs, where Linux allows,
as the first process of a process-id namespace of its own, so that when it
ends the kernel ends every process it started, even one that left the group.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import select
import signal
import struct
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import TypeVar

from ankigen.build.timelimit import (
    TimeLimitExceeded,
    call_with_time_limit,
    interrupts_held,
    release_interrupts,
)
from ankigen.sandbox import confine
from ankigen.sandbox.confine import Confinement

__all__ = ["ChildFailed", "call_in_child"]

T = TypeVar("T")


class ChildFailed(Exception):
    """The child process ended without a result (it crashed, exited or was killed)."""


def call_in_child(
    work: Callable[[], T], seconds: float, confinement: Confinement | None = None
) -> T:
    """Return ``work()`` computed in a forked child process, killed after ``seconds``.

    ``work`` should catch its own errors and return bytes, or text, numbers,
    lists and tuples (sent as JSON: a tuple comes back as a list); an
    exception that escapes it becomes ChildFailed. The answer is read as data,
    never unpickled (the work may be hostile and write to the pipe itself),
    and at most :data:`MAX_ANSWER` bytes of it. What the child prints is
    dropped. The child leads a session and process group of its own (no
    controlling terminal), and the whole group is killed at the end, so
    processes the work started do not outlive it either. With a
    ``confinement`` (``ankigen.sandbox.confine``) the work runs under its limits, and
    where Linux allows, as the first process of a process-id namespace of its
    own: when it ends, the kernel ends every process it started, even one
    that left the group. Without ``fork`` (Windows) the
    work runs here, under ``call_with_time_limit``.
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        return call_with_time_limit(work, seconds)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    # The child writes here the id of the process that runs the work (0: itself),
    # then that process's exit status.
    news_reader, news_writer = os.pipe()
    child = context.Process(
        target=_in_child, args=(work, sender, confinement, news_writer), daemon=True
    )
    with interrupts_held():
        child.start()
        pid = child.pid
        assert pid is not None  # started
    sender.close()
    os.close(news_writer)
    try:
        if not receiver.poll(seconds):
            raise TimeLimitExceeded
        try:
            ok, value = _decode(receiver.recv_bytes(MAX_ANSWER))
        except EOFError:  # it ended without a word: exited, crashed or was killed
            ok, value = False, None
        except OSError:  # longer than MAX_ANSWER
            ok, value = False, f"its answer is larger than {MAX_ANSWER >> 20} MiB"
    finally:
        # Also after a result: a thread or process the work left running must not
        # keep the child. The child is not reaped before this, so its id is not reused.
        status = _end_worker(news_reader)
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        child.kill()
        child.join()
        receiver.close()
    if not ok:
        ended = child.exitcode if status is None else status
        raise ChildFailed(str(value) if value else _ended(ended))
    return value  # type: ignore[return-value]


#: The largest answer a child may send (a figure's image and its traceback fit well).
MAX_ANSWER = 64 << 20
_BYTES, _JSON, _FAILED = b"B", b"J", b"F"


def _encode(ok: bool, value: object) -> bytes:
    """The child's answer as bytes: a tag, then the bytes, or JSON, or the failure's text."""
    if not ok:
        return _FAILED + str(value).encode("utf-8", "replace")
    if isinstance(value, bytes):
        return _BYTES + value
    return _JSON + json.dumps(value).encode()


def _decode(answer: bytes) -> tuple[bool, object]:
    """What the child said; anything malformed is a failure, never an exception here."""
    tag, body = answer[:1], answer[1:]
    if tag == _BYTES:
        return True, body
    if tag == _FAILED:
        return False, body.decode("utf-8", "replace")
    if tag == _JSON:
        try:
            return True, json.loads(body)
        except (ValueError, RecursionError):
            pass
    return False, "its answer could not be read"


def _ended(status: int | None) -> str:
    if status is not None and status < 0:
        return f"the process was killed by signal {-status} ({_signal_name(-status)})"
    return f"the process ended with status {status}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"


_NEWS = struct.Struct("<i")


def _end_worker(news: int) -> int | None:
    """Kill the namespace's first process, if the child made one; its exit status.

    The child waits for it without reaping it, so its id stays its own until
    the child is killed after this.
    """
    try:
        worker = _read_news(news)
        if not worker:
            return None
        with contextlib.suppress(OSError):
            os.kill(worker, signal.SIGKILL)
        return _read_news(news)
    finally:
        os.close(news)


def _read_news(news: int) -> int | None:
    """One number from the child, None when it said nothing in 5 s (or closed the pipe)."""
    data = b""
    while len(data) < _NEWS.size:
        ready, _, _ = select.select([news], [], [], 5.0)
        chunk = os.read(news, _NEWS.size - len(data)) if ready else b""
        if not chunk:
            return None
        data += chunk
    value: int = _NEWS.unpack(data)[0]
    return value


def _in_child(
    work: Callable[[], object],
    sender: Connection,
    confinement: Confinement | None,
    news: int,
) -> None:
    """The child's side: quiet, default signals, one message back."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # A session of its own: its own process group (killed as a whole at the end),
    # and no controlling terminal to read keys from or write escapes to (/dev/tty).
    # Until this runs, the parent's kill of the group misses it but kills it by id.
    try:
        os.setsid()
    except OSError:
        os.setpgid(0, 0)
    release_interrupts()
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    if confinement is not None and confine.enter_namespaces().processes:
        worker = os.fork()
        if worker:  # this process stays outside: it waits and tells the parent
            sender.close()
            _watch_worker(worker, news)
        os.close(news)
        _run_confined(work, sender, confinement)
        os._exit(0)
    os.write(news, _NEWS.pack(0))
    os.close(news)
    if confinement is not None:
        _run_confined(work, sender, confinement)
        return
    _send_outcome(work, sender)


def _watch_worker(worker: int, news: int) -> None:
    """Tell the parent the worker's id, wait for it to end (not reaping it), tell its status."""
    os.write(news, _NEWS.pack(worker))
    while True:
        try:
            ended = os.waitid(os.P_PID, worker, os.WEXITED | os.WNOWAIT)
        except InterruptedError:
            continue
        if ended is not None:
            break
    status = -ended.si_status if ended.si_code != os.CLD_EXITED else ended.si_status
    os.write(news, _NEWS.pack(status))
    os.close(news)
    while True:  # killed by the parent, which reaps this process and frees the worker's id
        signal.pause()


def _run_confined(work: Callable[[], object], sender: Connection, confinement: Confinement) -> None:
    """Run the work under the confinement's limits and file rules, then report."""
    confine.disarm_inherited_files(frozenset({sender.fileno()}))
    confine.apply_limits(confinement)
    confine.restrict_files(confinement)
    _send_outcome(work, sender)


def _send_outcome(work: Callable[[], object], sender: Connection) -> None:
    try:
        answer = _encode(True, work())
    except BaseException as exc:  # reported to the parent, never raised in the child
        answer = _encode(False, f"{type(exc).__name__}: {exc}")
    sender.send_bytes(answer)
    sender.close()
