"""Memory a stage freed, given back to the system (issue 26: peak memory of a big build).

CPython takes the memory of small objects in arenas of its own, mapped apart
from the C heap; what a stage frees on the C heap (the text of a big file's
sections, their cache records, strings past 512 bytes) stays in the process
and is never reused by them. glibc hands such pages back only at the top of
its heap, so after the parse of a 100,000-item file the build's process held
about 85 MB it had freed. ``malloc_trim`` gives them back; where the C
library has none (not glibc), nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable

__all__ = ["give_back_freed"]


def give_back_freed() -> None:
    """Hand the pages the C heap holds free back to the system (a few milliseconds)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)  # glibc's; musl has none
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    function: Callable[[int], int] = trim
    return function
