"""Run work under a wall-clock limit: a check statement (``simplify``) or a figure.

On the main thread of a Unix process a SIGALRM timer interrupts the work
(the previous handler is restored afterwards). Elsewhere (a worker thread,
or a platform without ``setitimer``) the work runs in a helper thread that
is sent an asynchronous exception when time is up. Both interrupt only
Python code; the checker's size guards keep single C-level operations
(huge integer powers) from happening at all.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import TypeVar

T = TypeVar("T")


class TimeLimitExceeded(Exception):
    """The work did not finish within its time limit."""


class _TimeUp(BaseException):
    """Raised inside the work; a BaseException so sympy's ``except Exception`` lets it by."""


def call_with_time_limit(work: Callable[[], T], seconds: float) -> T:
    """Return ``work()``, or raise TimeLimitExceeded after ``seconds``."""
    on_main = threading.current_thread() is threading.main_thread()
    if on_main and hasattr(signal, "setitimer"):
        return _with_alarm(work, seconds)
    return _with_watchdog(work, seconds)


def _with_alarm(work: Callable[[], T], seconds: float) -> T:
    """Interrupt ``work`` with SIGALRM."""
    armed = [True]

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        if armed[0]:
            raise _TimeUp

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
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
