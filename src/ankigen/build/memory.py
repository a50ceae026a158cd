"""Memory a stage freed, given back to the system (issue 26: peak memory of a big build).

CPython takes the memory of small objects in arenas of its own, mapped apart
from the C heap; what a stage frees on the C heap (the text of a big file's
sections, their cache records, strings past 512 bytes) stays in the process
and is never reused by them. glibc hands such pages back only at the top of
its heap, so after the parse of a 100,000-item file the build's process held
about 85 MB it had freed. ``malloc_trim`` gives them back; where the C
library has none (not glibc), nothing is done.

What the trim cannot give back is a heap cut into small free pieces between
live ones. glibc maps an allocation of 128 KiB or more apart from its heap,
but once such a mapping is freed it raises that threshold to the freed size
(up to 32 MB), so that later big allocations come from the heap instead: a
pooled parse, which receives its worker's results as big messages, then
left the build's process about 40 MB bigger than a serial parse, held free
between live records and strings. ``map_big_allocations`` fixes the
threshold where it starts (same CPU and wall time in the benchmark).
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable

__all__ = ["give_back_freed", "map_big_allocations"]

#: ``mallopt``'s parameter for the size from which an allocation is mapped apart.
_M_MMAP_THRESHOLD = -3
#: glibc's own starting threshold, kept from then on.
MMAP_THRESHOLD = 128 * 1024


def give_back_freed() -> None:
    """Hand the pages the C heap holds free back to the system (a few milliseconds)."""
    trim = _glibc("malloc_trim", (ctypes.c_size_t,))
    if trim is not None:
        trim(0)


def map_big_allocations() -> None:
    """Have every allocation of ``MMAP_THRESHOLD`` bytes or more mapped apart from the
    C heap, for the rest of the process (glibc would raise the threshold as it goes)."""
    mallopt = _glibc("mallopt", (ctypes.c_int, ctypes.c_int))
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)


@functools.cache
def _glibc(name: str, arguments: tuple[type, ...]) -> Callable[..., int] | None:
    """glibc's function ``name``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
    except OSError:
        return None
    function = getattr(libc, name, None)  # glibc's; musl has neither
    if function is None:
        return None
    function.argtypes = list(arguments)
    function.restype = ctypes.c_int
    found: Callable[..., int] = function
    return found
