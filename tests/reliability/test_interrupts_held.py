"""``interrupts_held``: a Ctrl-C or SIGTERM that arrives while workers start waits for the
start to be whole, then does what it would have done (``build/timelimit.py``)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

import pytest

from ankigen.build.timelimit import interrupts_held


def _handlers_run(done: Callable[[], bool] = lambda: False) -> None:
    """Give the main thread's Python signal handlers their turn, for up to 10 s.

    A signal the kernel handed to another thread is seen by that thread's C
    handler when the thread next runs, which on a loaded machine may be after
    the block has ended: its Python handler then runs in the main thread at
    its next step, still after the block, which is all that is promised.
    """
    deadline = time.monotonic() + 10
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def _kill_from_another_thread(signum: int) -> None:
    """The kernel hands a process-wide signal to a thread that has it open: not this one."""
    sender = threading.Thread(target=os.kill, args=(os.getpid(), signum))
    sender.start()
    sender.join()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
@pytest.mark.parametrize("deliver", [signal.raise_signal, _kill_from_another_thread])
def test_ctrl_c_while_held_comes_after_the_block(deliver: Callable[[int], None]) -> None:
    finished: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts_held():
            deliver(signal.SIGINT)
            finished.append("the start")
        _handlers_run()
    assert finished == ["the start"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_sigterm_while_held_reaches_its_handler_once() -> None:
    seen: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with interrupts_held():
            _kill_from_another_thread(signal.SIGTERM)
            assert seen == []
        _handlers_run(lambda: bool(seen))
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)
