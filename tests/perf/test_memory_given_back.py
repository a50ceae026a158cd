"""Memory a stage freed is given back to the system between stages (``build.memory``)."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

from ankigen.build import memory


def test_giving_back_freed_memory_is_harmless_at_any_time() -> None:
    kept = [bytes(100_000) for _ in range(50)]
    del kept[::2]  # freed pieces of the C heap between live ones
    memory.give_back_freed()
    memory.give_back_freed()
    assert all(piece == bytes(100_000) for piece in kept)


def test_glibc_gives_it_back_and_other_systems_are_left_alone() -> None:
    trim = memory._glibc("malloc_trim", (ctypes.c_size_t,))
    if sys.platform.startswith("linux") and trim is not None:
        assert trim(0) in (0, 1)  # glibc: 1 when memory was given back
    else:
        assert trim is None


_MAPPED = """
import ctypes, sys
from ankigen.build import memory

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
        ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
         "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
if getattr(libc, "mallinfo2", None) is None:
    sys.exit(3)
libc.mallinfo2.restype = MallInfo2
if sys.argv[1] == "fixed":
    memory.map_big_allocations()
freed = bytearray(8_000_000)
del freed
before = libc.mallinfo2().hblkhd
pieces = [bytearray(300_000) for _ in range(10)]
print(libc.mallinfo2().hblkhd - before)
"""


def _mapped_after_a_big_free(mode: str) -> int:
    """Bytes of ten 300 KB pieces a fresh process mapped apart from glibc's heap, made
    after an 8 MB buffer was freed (``mode``: "fixed" calls ``map_big_allocations``)."""
    run = subprocess.run([sys.executable, "-c", _MAPPED, mode], capture_output=True, text=True)
    if run.returncode == 3:
        pytest.skip("no glibc 2.33 or later here: nothing tells where memory was taken from")
    assert run.returncode == 0, run.stderr
    return int(run.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_big_allocations_stay_mapped_after_a_bigger_one_was_freed() -> None:
    """glibc raises its threshold to 8 MB once the 8 MB buffer is freed and takes the
    300 KB pieces from its heap, where freeing them leaves holes; fixed, it maps them."""
    assert _mapped_after_a_big_free("fixed") >= 10 * 300_000
    assert _mapped_after_a_big_free("glibc's own") == 0
