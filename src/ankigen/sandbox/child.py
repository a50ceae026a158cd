"""Run work that may be hostile (a figure script) in a child process killed at its time limit.

The child is a fresh interpreter (``python -I``, ``ankigen.sandbox.runner``)
started with ``subprocess``: it inherits nothing of the build but its
standard streams, confines itself (``ankigen.sandbox.confine``) before it
imports the task's module, and answers on a pipe with framed data, read
here with a bound and checked, never unpickled. Nothing the work does, not
even ``except BaseException`` around ``sleep``, keeps it alive past the limit,
and no process it starts outlives it: the child leads a session and process
group of its own, killed as a whole at the end, and with a confinement the
work runs, where Linux allows, as the first process of a process-id namespace
of its own, so that when it ends the kernel ends every process it started,
even one that left the group.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

from ankigen.build.timelimit import TimeLimitExceeded, interrupts_held
from ankigen.sandbox import runner
from ankigen.sandbox.confine import Confinement

__all__ = ["MAX_ANSWER", "ChildFailed", "Task", "call_in_child", "child_environment"]

MAX_ANSWER = runner.MAX_ANSWER

#: The variables of the build's environment a child gets: where programs, libraries,
#: the user's home and matplotlib's settings and caches are, the locale, the time zone
#: and the reproducible-builds time. Nothing else: a figure script is an author's code,
#: and a build's environment holds its secrets (a CI job's tokens, cloud keys).
_PASSED_ON = frozenset(
    {
        "PATH",
        "HOME",
        "LANG",
        "LANGUAGE",
        "TZ",
        "SOURCE_DATE_EPOCH",
        "LD_LIBRARY_PATH",
        "MPLCONFIGDIR",
        "XDG_CONFIG_HOME",
        "XDG_CACHE_HOME",
        "SYSTEMROOT",  # Windows: Python cannot start without it
    }
)
#: The environment variables a child gets besides those: one thread for numpy's
#: linear algebra (its thread buffers would count against the memory limit) and
#: matplotlib's non-interactive backend, whatever the desktop offers.
_CHILD_ENVIRONMENT = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "MPLBACKEND": "agg",
}


def child_environment() -> dict[str, str]:
    """The environment a child starts with: the build's variables it needs, and its own."""
    passed = {
        name: value
        for name, value in os.environ.items()
        if name in _PASSED_ON or name.startswith("LC_")
    }
    return {**passed, **_CHILD_ENVIRONMENT}


class ChildFailed(Exception):
    """The child process ended without a result (it crashed, exited or was killed)."""


@dataclass(frozen=True)
class Task:
    """Work for a child: ``function`` (``ankigen.module:function``) called with ``argument``.

    ``argument`` is JSON data; the function returns bytes or JSON data.
    """

    function: str
    argument: object = None


def call_in_child(task: Task, seconds: float, confinement: Confinement | None = None) -> object:
    """Return the task's result computed in a fresh child process, killed after ``seconds``.

    The result is the bytes the task returned, or its JSON data (a tuple comes
    back as a list); an exception that escapes the task, or a child that ends
    without an answer or with a malformed one, is ChildFailed; a child still
    running after ``seconds`` (starting the interpreter included) is killed,
    TimeLimitExceeded. With a ``confinement`` the child confines itself before
    it runs the task.
    """
    request = json.dumps(
        {
            "task": task.function,
            "argument": task.argument,
            "confinement": None if confinement is None else confinement.to_json(),
        }
    ).encode()
    deadline = time.monotonic() + seconds
    # A confined child tells here the id of its namespace's first process, which
    # runs the work (0: itself), then that process's exit status.
    told = confinement is not None and os.name == "posix"  # Windows passes no pipe
    news, news_writer = os.pipe() if told else (-1, -1)
    mode = ["plain"] if confinement is None else ["confined", str(news_writer)]
    try:
        with interrupts_held():  # a Ctrl-C now would leave the child running
            child = subprocess.Popen(
                runner.child_command(*mode),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                pass_fds=(news_writer,) if news_writer >= 0 else (),
                start_new_session=True,  # its own process group, and no terminal to write to
                env=child_environment(),
            )
    except BaseException:
        if news >= 0:
            os.close(news)
        raise
    finally:
        if news_writer >= 0:
            os.close(news_writer)
    status: int | None = None
    try:
        try:
            answer = _exchange(child, request, deadline)
        finally:
            # Also after an answer: a thread or process the work left running must not
            # keep the child. Neither is reaped before this, so their ids are their own.
            status = _end_worker(news) if news >= 0 else None
        if answer is None and status is None:
            status = _exit_status(child, deadline)
    finally:
        _kill_group(child)
    if answer is None:
        raise ChildFailed(_ended(child.returncode if status is None else status))
    return _decode(answer)


def _end_worker(news: int) -> int | None:
    """Kill the namespace's first process, if the child made one; its exit status.

    The child waits for it without reaping it, so its id stays its own until
    the child is killed after this. Killed by its id, it ends even if the
    script took it out of the child's process group.
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
    while len(data) < runner.NEWS.size:
        ready, _, _ = select.select([news], [], [], 5.0)
        chunk = os.read(news, runner.NEWS.size - len(data)) if ready else b""
        if not chunk:
            return None
        data += chunk
    value: int = runner.NEWS.unpack(data)[0]
    return value


def _exchange(child: subprocess.Popen[bytes], request: bytes, deadline: float) -> bytes | None:
    """Send the request, read the framed answer; None when the child closed without one."""
    assert child.stdin is not None and child.stdout is not None
    if os.name == "nt":  # no select() on pipes: read it whole (Windows confines nothing)
        try:
            answer, _ = child.communicate(request, timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise TimeLimitExceeded from None
        return answer if len(answer) >= runner.HEADER.size else None
    to_send = memoryview(request)
    received = bytearray()
    wanted = runner.HEADER.size
    with selectors.DefaultSelector() as selector:
        os.set_blocking(child.stdin.fileno(), False)
        selector.register(child.stdin, selectors.EVENT_WRITE)
        selector.register(child.stdout, selectors.EVENT_READ)
        while len(received) < wanted:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeLimitExceeded
            for key, _ in selector.select(remaining):
                if key.fileobj is child.stdin:
                    to_send = _send_some(child, to_send, selector)
                    continue
                chunk = os.read(child.stdout.fileno(), min(1 << 20, wanted - len(received)))
                if not chunk:  # it ended, or closed its answer, with no word or half a one
                    return None if len(received) < runner.HEADER.size else bytes(received)
                received += chunk
                if len(received) == runner.HEADER.size:
                    wanted += _body_length(received)
    return bytes(received)


def _send_some(
    child: subprocess.Popen[bytes], to_send: memoryview, selector: selectors.BaseSelector
) -> memoryview:
    """Write what the pipe takes of the request; close standard input when all is sent."""
    assert child.stdin is not None
    try:
        written = os.write(child.stdin.fileno(), to_send)
    except BrokenPipeError:  # it ended before reading it all: its answer (or status) tells
        written = len(to_send)
    to_send = to_send[written:]
    if not to_send:
        selector.unregister(child.stdin)
        with contextlib.suppress(BrokenPipeError):
            child.stdin.close()
    return to_send


def _body_length(header: bytearray) -> int:
    """The body's length a well-formed header gives; 0 for any other header (then refused)."""
    magic, tag, length = runner.HEADER.unpack(bytes(header))
    if magic != runner.MAGIC or tag not in (runner.BYTES, runner.JSON, runner.FAILED):
        return 0
    return int(length) if length <= MAX_ANSWER else 0


def _decode(answer: bytes) -> object:
    """The task's result; anything malformed is ChildFailed, never another exception."""
    magic, tag, length = runner.HEADER.unpack(answer[: runner.HEADER.size])
    body = answer[runner.HEADER.size :]
    if magic == runner.MAGIC and length > MAX_ANSWER:
        raise ChildFailed(f"its answer is larger than {MAX_ANSWER >> 20} MiB")
    if magic != runner.MAGIC or length != len(body):
        raise ChildFailed("its answer could not be read")
    if tag == runner.BYTES:
        return body
    if tag == runner.FAILED:
        raise ChildFailed(body.decode("utf-8", "replace"))
    if tag == runner.JSON:
        with contextlib.suppress(ValueError, RecursionError):
            return json.loads(body)
    raise ChildFailed("its answer could not be read")


def _exit_status(child: subprocess.Popen[bytes], deadline: float) -> int | None:
    """How the child ended, once it has, without reaping it (None where that cannot be seen)."""
    if not hasattr(os, "waitid"):
        return None
    while True:
        ended = os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
        if ended is not None:
            return ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status
        if time.monotonic() >= deadline:
            raise TimeLimitExceeded
        time.sleep(0.005)  # it closed its answer as it ended: a moment at most


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill the child's process group, then the child, and reap it."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(OSError):
            os.killpg(child.pid, signal.SIGKILL)
    child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


def _ended(status: int | None) -> str:
    if status is not None and status < 0:
        return f"the process was killed by signal {-status} ({_signal_name(-status)})"
    return f"the process ended with status {status}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return "unknown"
