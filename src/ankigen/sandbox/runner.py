"""The child's side: a fresh interpreter that confines itself, then runs one task.

``ankigen.sandbox.child`` starts ``python -I`` with this module and one mode:

- ``plain``: read the request, run the task, answer (no confinement);
- ``confined FD``: enter new network and process-id namespaces where Linux
  allows, start the ``inner`` stage as the first process of the new
  process-id namespace, and tell the build its id and how it ended on the
  pipe ``FD``; or, without namespaces, be the inner stage itself;
- ``inner``: read the request, confine this process (its descriptors, limits,
  working folder, Landlock), and only then import the task's module and run it;
- ``layers``: tell which confinement layers this system gives (three bytes).

The request comes on standard input as one JSON object (at most
:data:`MAX_REQUEST` bytes): ``{"task": "ankigen.module:function", "argument":
..., "confinement": {...} or null}``. The answer goes back on a copy of
standard output, framed (:func:`frame`); standard output and error themselves
point at ``/dev/null`` while the task runs, so what it prints is dropped.
Nothing here imports more than the standard library and the sandbox before
the process is confined.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
import struct
import subprocess
import sys
from collections.abc import Callable

from ankigen.sandbox import confine, landlock

__all__ = ["MAX_ANSWER", "MAX_REQUEST", "NEWS", "child_command", "frame", "main"]

#: The largest answer a child may send (a figure's image and its traceback fit well).
MAX_ANSWER = 64 << 20
#: The largest request the build sends (a figure's formulas).
MAX_REQUEST = 64 << 20
#: Every answer starts with these bytes, then a tag, then the body's length.
MAGIC = b"AGSB1"
HEADER = struct.Struct("<5scQ")
#: A number the confined child tells the build on its news pipe (a process id, a status).
NEWS = struct.Struct("<i")
BYTES, JSON, FAILED = b"B", b"J", b"F"

#: The child's whole program: find this ankigen (the build's, even from a source tree),
#: then run :func:`main`. ``-I`` keeps the user's site and ``PYTHON*`` variables out.
_BOOT = (
    "import sys\n"
    "if sys.argv[1] not in sys.path: sys.path.insert(0, sys.argv[1])\n"
    "from ankigen.sandbox.runner import main\n"
    "main(sys.argv[2:])\n"
)


def child_command(*mode: str) -> list[str]:
    """The command line that starts a child in ``mode`` with this interpreter and ankigen."""
    import ankigen

    package_root = os.path.dirname(os.path.dirname(os.path.abspath(ankigen.__file__)))
    return [sys.executable, "-I", "-c", _BOOT, package_root, *mode]


def frame(tag: bytes, body: bytes) -> bytes:
    """An answer as sent: magic, tag, the body's length, the body."""
    return HEADER.pack(MAGIC, tag, len(body)) + body


def main(argv: list[str]) -> None:
    """Run the child in the mode ``argv`` names (see the module's docstring)."""
    # The build held Ctrl-C and SIGTERM back while starting this process; the mask
    # outlives exec, so let them through (the build kills this group when it stops).
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    mode = argv[0] if argv else ""
    if mode == "layers":
        _tell_layers()
    elif mode == "confined":
        _confined(int(argv[1]))
    elif mode in ("plain", "inner"):
        _serve(confined=mode == "inner")
    else:
        raise SystemExit(f"unknown mode {mode!r}")


def _tell_layers() -> None:
    """Write which layers this system gives: network, processes, files (one byte each)."""
    layers = confine.enter_namespaces()
    files = landlock.abi() > 0
    os.write(1, bytes((layers.network, layers.processes, files)))


def _confined(news: int) -> None:
    """Enter the namespaces and run the inner stage as their first process.

    On ``news`` (-1: none, on Windows) this process tells the build the inner stage's process id (0
    when it runs the task itself), then, once the inner stage has ended, its
    exit status; it does not reap it, so its id stays its own until the build
    has killed it, and waits to be killed in turn.
    """
    if news < 0 or not confine.enter_namespaces().processes:
        if news >= 0:
            os.write(news, NEWS.pack(0))
            os.close(news)
        _serve(confined=True)
        return
    # A process-id namespace holds for the processes this one starts: the inner stage
    # is its first, and when it ends the kernel ends every process it started.
    inner = subprocess.Popen(child_command("inner"), stderr=subprocess.DEVNULL, close_fds=True)
    # Standard input and output now belong to the inner stage alone: the build sees
    # the end of the answer when the inner stage (and whatever it started) is gone.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    os.write(news, NEWS.pack(inner.pid))
    while True:
        try:
            ended = os.waitid(os.P_PID, inner.pid, os.WEXITED | os.WNOWAIT)
        except InterruptedError:
            continue
        if ended is not None:
            break
    status = ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status
    os.write(news, NEWS.pack(status))
    os.close(news)
    while True:  # killed by the build, which reaps this process and so frees the inner's id
        signal.pause()


def _serve(*, confined: bool) -> None:
    """Read the request, confine this process if asked, run the task, send the answer."""
    request = _read_request()
    answer_fd = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    outcome = _outcome(request, answer_fd, confined=confined)
    with os.fdopen(answer_fd, "wb") as answer:
        answer.write(outcome)


def _read_request() -> dict[str, object]:
    data = sys.stdin.buffer.read(MAX_REQUEST + 1)
    if len(data) > MAX_REQUEST:
        raise SystemExit("the request is too large")
    request = json.loads(data)
    if not isinstance(request, dict):
        raise SystemExit("the request must be an object")
    return request


def _outcome(request: dict[str, object], answer_fd: int, *, confined: bool) -> bytes:
    """The framed answer: the task's bytes, its JSON, or why it failed."""
    try:
        if confined:
            confinement = confine.Confinement.from_json(request["confinement"])
            confine.disarm_inherited_files(frozenset({answer_fd}))
            confine.apply_limits(confinement)
            confine.restrict_files(confinement)
        value = _task(request["task"])(request.get("argument"))
        if isinstance(value, bytes):
            return frame(BYTES, value)
        return frame(JSON, json.dumps(value).encode())
    except BaseException as exc:  # reported to the build, never raised here
        return frame(FAILED, f"{type(exc).__name__}: {exc}".encode("utf-8", "replace"))


def _task(name: object) -> Callable[[object], object]:
    """The function ``ankigen.module:function`` names (only ankigen's own modules)."""
    if not isinstance(name, str) or not name.startswith("ankigen."):
        raise ValueError(f"not a task of ankigen: {name!r}")
    module, _, function = name.partition(":")
    found: Callable[[object], object] = getattr(importlib.import_module(module), function)
    return found
