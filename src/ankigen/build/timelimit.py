"""Run work under a wall-clock limit: a check statement (``simplify``) or a formula.

``call_with_time_limit`` interrupts trusted work (sympy, formula layout) in
the same process; work that may be hostile (a figure script) runs in a killed
child process instead (``ankigen.sandbox.child``).

On the main thread of a Unix process a SIGALRM timer interrupts the work
(the previous handler is restored afterwards). Elsewhere (a worker thread,
or a platform without ``setitimer``) the work runs in a helper thread that
is sent an asynchronous exception when time is up. Both interrupt only
Python code; the checker's size guards keep single C-level operations
(huge integer powers) from happening at all.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class TimeLimits:
    """Seconds each kind of work may take; each is a ``[tool.ankigen]`` setting.

    ``check_statement`` is one assert (``check-time-limit``), ``check_deck`` all the
    checks of one content file together (``check-deck-time-limit``), ``formula``
    drawing one formula as an image (``formula-time-limit``), ``figure`` one
    figure script (``figure-time-limit``) and ``figure_deck`` all the figure
    scripts of one content file together (``figure-deck-time-limit``).
    """

    check_statement: float = 5.0
    check_deck: float = 60.0
    formula: float = 10.0
    figure: float = 60.0
    figure_deck: float = 60.0


#: ``[tool.ankigen]`` setting name -> TimeLimits field.
LIMIT_SETTINGS = {
    "check-time-limit": "check_statement",
    "check-deck-time-limit": "check_deck",
    "formula-time-limit": "formula",
    "figure-time-limit": "figure",
    "figure-deck-time-limit": "figure_deck",
}


class Budget:
    """Seconds shared by a run of work (the checks of one deck), counted from its start."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._deadline = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left; 0 or less when the budget is spent."""
        return self._deadline - time.monotonic()

    @contextlib.contextmanager
    def excluded(self) -> Iterator[None]:
        """Time spent inside costs nothing (loading code is not working on content)."""
        start = time.monotonic()
        try:
            yield
        finally:
            self._deadline += time.monotonic() - start


class TimeLimitExceeded(Exception):
    """The work did not finish within its time limit."""


class _TimeUp(BaseException):
    """Raised inside the work; a BaseException so sympy's ``except Exception`` lets it by."""


def call_with_time_limit(work: Callable[[], T], seconds: float) -> T:
    """Return ``work()``, or raise TimeLimitExceeded after ``seconds``."""
    on_main = threading.current_thread() is threading.main_thread()
    with _time_ups_unprinted():
        if on_main and hasattr(signal, "setitimer"):
            return _with_alarm(work, seconds)
        return _with_watchdog(work, seconds)


@contextlib.contextmanager
def _time_ups_unprinted() -> Iterator[None]:
    """Keep Python from printing a time limit's interrupt that landed where it cannot
    propagate (a ``__del__``, a gc callback): "Exception ignored in …" and a traceback.

    It tells the author nothing (the alarm fires again, and the watchdog stops
    waiting anyway), and a build never shows a traceback for its input. Any other
    exception Python cannot raise is still handed to the hook before.
    """
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, _TimeUp):
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


#: How often a due time limit interrupts the work again, until it stops.
_RETRY_SECONDS = 0.05


def _with_alarm(work: Callable[[], T], seconds: float) -> T:
    """Interrupt ``work`` with SIGALRM."""
    armed = [True]

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        if armed[0]:
            raise _TimeUp

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        # Re-fired every 50 ms once due: a raise can be swallowed where Python
        # ignores exceptions (a gc callback, a __del__), and one lost alarm
        # must not let the work run for ever.
        signal.setitimer(signal.ITIMER_REAL, seconds, _RETRY_SECONDS)
        try:
            return work()
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _TimeUp:
        raise TimeLimitExceeded from None
    finally:
        signal.signal(signal.SIGALRM, previous)


def _with_watchdog(work: Callable[[], T], seconds: float) -> T:
    """Run ``work`` in a helper thread and interrupt it when time is up."""
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # handed to the caller below
            failure.append(exc)

    thread = threading.Thread(target=target, daemon=True, name="ankigen-check")
    thread.start()
    thread.join(seconds)
    if thread.is_alive() and thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_TimeUp)
        )
        thread.join(1.0)
        raise TimeLimitExceeded
    if failure:
        if isinstance(failure[0], _TimeUp):
            raise TimeLimitExceeded
        raise failure[0]
    return result[0]


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while child processes or pool workers start.

    A child starts with the parent's handlers, which unwind the parent's build;
    held back, a signal waits until the child has set its own handlers (and
    the parent gets its copy as soon as the start is done). The signal mask
    holds the signal for this thread only: the kernel may hand it to another
    of the build's threads, whose C handler still has Python raise in this
    one, mid-start (``concurrent.futures`` left with a pool half started). So
    on the main thread the Python handlers are swapped too, for ones that only
    note the signal; it is raised again, to the real handler, once the start
    is whole.
    """
    noted: list[int] = []
    swapped = _note_interrupts(noted)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
    try:
        yield
    finally:
        try:
            _put_back(swapped)
        finally:
            release_interrupts()
        for signum in dict.fromkeys(noted):  # each once, in the order they came
            _deliver(signum, swapped[signum])


def _put_back(handlers: dict[int, Any]) -> None:
    """Set each handler again, even if another signal's handler raises meanwhile (a time
    limit's alarm): a noting handler left behind would swallow every later Ctrl-C."""
    raised: BaseException | None = None
    for signum, handler in handlers.items():
        for _ in range(3):  # a handler raises once, not for ever
            try:
                signal.signal(signum, handler)
                break
            except BaseException as exc:  # raised by a handler run between two steps
                raised = raised or exc
    if raised is not None:
        raise raised


def _deliver(signum: int, handler: Any) -> None:
    """What a signal noted while held would have done: its Python handler, called
    here and now (raised again, it could come back after the build has unwound)."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)


def _note_interrupts(noted: list[int]) -> dict[int, Any]:
    """On the main thread, Ctrl-C and SIGTERM only noted in ``noted``: the handlers
    they replaced (none elsewhere: only the main thread may set a handler)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def note(signum: int, frame: FrameType | None) -> None:
        noted.append(signum)

    return {signum: signal.signal(signum, note) for signum in sorted(_INTERRUPTS)}


def release_interrupts() -> None:
    """Let Ctrl-C and SIGTERM through again (after :func:`interrupts_held`, in a child)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _INTERRUPTS)
