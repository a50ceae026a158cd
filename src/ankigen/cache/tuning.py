"""The thresholds of the build caches, as one settings object (tests tune it, not globals).

Each is a trade of speed or memory, never of a deck's bytes: any value gives
the decks and diagnostics the defaults give (``tests/cache/test_no_cache.py``
compares a cached build with a build without any cache).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CacheTuning:
    """How much a build holds in memory, when a file counts as settled."""

    #: Sanitised SVG bytes one cache holds in memory before it writes them to disk instead.
    held_bytes: int = 64 * 1024 * 1024
    #: Bytes of this build's values one memo (``cache.Memo``) holds in memory until it is
    #: saved; past them, values wait in a scratch file (``cache.kept``): a 100,000-item
    #: deck's section records are 66 MB, its note records 45 MB. A 10,000-item deck's
    #: sections are 6.5 MB: a few of them wait too (a few milliseconds), and the peak of
    #: a 100,000-item build is 10 MB lower than with 16 MB held.
    held_values: int = 4 * 1024 * 1024
    #: A file changed this recently (ns) when the build began is read again next time: a
    #: second change within the same tick of the file system's clock would keep its times.
    settled_ns: int = 2_000_000_000


#: The thresholds a build uses unless told otherwise.
DEFAULT_TUNING = CacheTuning()
