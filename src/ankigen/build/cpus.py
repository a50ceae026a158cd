"""How many CPUs a build may use: for parsing workers and the drawing pool alike."""

from __future__ import annotations

import os

__all__ = ["capped_jobs", "usable_cpus"]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def capped_jobs(asked: int | None) -> int:
    """The processes a build runs: ``asked`` (``-j``, ``[tool.ankigen] jobs``), else
    every usable CPU, and never more than the CPUs this process may use (``jobs = 400``
    on 2 CPUs would only start 400 processes that wait for each other)."""
    usable = usable_cpus()
    return max(1, min(asked or usable, usable))
