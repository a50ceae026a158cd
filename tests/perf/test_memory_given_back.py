"""Memory a stage freed is given back to the system between stages (``build.memory``)."""

from __future__ import annotations

import sys

from ankigen.build import memory


def test_giving_back_freed_memory_is_harmless_at_any_time() -> None:
    kept = [bytes(100_000) for _ in range(50)]
    del kept[::2]  # freed pieces of the C heap between live ones
    memory.give_back_freed()
    memory.give_back_freed()
    assert all(piece == bytes(100_000) for piece in kept)


def test_glibc_gives_it_back_and_other_systems_are_left_alone() -> None:
    trim = memory._malloc_trim()
    if sys.platform.startswith("linux") and trim is not None:
        assert trim(0) in (0, 1)  # glibc: 1 when memory was given back
    else:
        assert trim is None
