"""``interrupts_held``: a Ctrl-C or SIGTERM that arrives while workers start waits for the
start to be whole, then does what it would have done (``build/timelimit.py``)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

import pytest

from ankigen.build.timelimit import interrupts_held


def _kill_from_another_thread(signum: int) -> None:
    """The kernel hands a process-wide signal to a thread that has it open: not this one."""
    sender = threading.Thread(target=os.kill, args=(os.getpid(), signum))
    sender.start()
    sender.join()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
@pytest.mark.parametrize("deliver", [signal.raise_signal, _kill_from_another_thread])
def test_ctrl_c_while_held_comes_after_the_block(deliver: Callable[[int], None]) -> None:
    finished: list[str] = []
    with pytest.raises(KeyboardInterrupt), interrupts_held():
        deliver(signal.SIGINT)
        finished.append("the start")
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
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)
