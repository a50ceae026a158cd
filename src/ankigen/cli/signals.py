"""Ctrl-C and SIGTERM on the command line: a plain line and exit 130 or 143, not a traceback.

Like ``ankigen.cli.app``, this module prints and picks exit codes; the stages never do.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ankigen.cli.terminal import echo


class _Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so every ``finally`` removes its scratch files."""


@contextmanager
def interruptible() -> Iterator[None]:
    """End a Ctrl-C or SIGTERM with a plain line and exit 130 or 143, not a traceback.

    Decks are written by one rename of a complete file, so each deck is either
    as it was or completely written; the unwinding removes temporary files.
    """
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    except KeyboardInterrupt:
        echo("Interrupted; the previous decks were left as they were.", err=True)
        sys.exit(128 + signal.SIGINT)
    except _Terminated:
        echo("Stopped by SIGTERM; the previous decks were left as they were.", err=True)
        sys.exit(128 + signal.SIGTERM)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    # Only the first one unwinds; a second SIGTERM must not interrupt the cleanup.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Terminated
