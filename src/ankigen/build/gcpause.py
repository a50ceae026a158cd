"""No cyclic garbage collection while a build runs.

A build allocates millions of small containers (markdown tokens, drafts,
items, notes) that all stay alive until the deck is written, so every cyclic
collection during the build scans them and frees nothing; with 100,000 items
that was a quarter of the CPU time, and the only cost growing faster than
the item count. Reference counting still frees everything acyclic at once;
the few cycles a build makes are collected by a full collection after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Freeze what exists (imports, caches) and pause the cyclic collector inside.

    Nested uses are fine: only the outermost one restores the collector.
    Forked worker processes inherit the pause; they turn it back on themselves
    (see ``resume_in_worker``).
    """
    if not gc.isenabled():
        yield
        return
    # Objects alive now (modules, caches) move to the permanent generation: no
    # later collection scans them, and forked workers do not touch their pages.
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        # Everything the build made joins the oldest generation with what was
        # frozen (freeze, then unfreeze): re-enabled, the collector does not
        # start by scanning the millions of young objects the build left (with
        # 100,000 items that first collection took a second and freed almost
        # nothing); their few cycles go at the next full collection.
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def resume_in_worker() -> None:
    """Turn cyclic collection back on in a process forked during a pause.

    Render workers draw thousands of formulas, and matplotlib's objects do form
    cycles; without collection their memory would only grow.
    """
    gc.enable()
