"""Frozen sections of earlier builds, so an edit re-parses only the sections it touched.

Each section's result (its items, formulas and diagnostics) is stored under a
hash of everything that shapes it: the section's text, the front matter, the
deck key, the file's display path and the code (``ankigen.cache.recipe``).
Lines are stored counted from the section's first line, so a section that
only moves (a line added above it) is still a hit; any other change is a
miss, parsed as usual. The results are rows of kind ``sections`` in the build
cache's store (``ankigen.cache``: one memo per deck, sealed rows, the generic
codec, so a field added to ``model.Item`` is written with the others).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ankigen.cache import DEFAULT_TUNING, CacheTuning, Codec, Decoded, Memo, Store, build_key
from ankigen.diagnostics import Diagnostic
from ankigen.model import CodeBlock, Item, Prose

__all__ = ["SectionCache", "SectionResult", "read_record", "record", "section_cache", "section_key"]

_FORMAT = 6
_KIND = "sections"


@dataclass(frozen=True)
class SectionResult:
    """What one section parsed to.

    ``items`` have no subdeck and no context line yet (both depend on the
    whole file); ``places`` holds each item's ``##`` section name, callout
    title and whether its question asks one (ends in ``?``), from which the
    file works them out. ``diagnostics`` come in the
    order a whole-file parse finds them (walker, MathJax delimiters, refused
    links, then freezing).
    """

    title: str | None
    items: tuple[Item, ...]
    places: tuple[tuple[str | None, str | None, bool], ...]
    formulas: tuple[CodeBlock, ...]
    diagnostics: tuple[Diagnostic, ...]
    #: The section's blocks on no card (format §15), for the preview.
    prose: tuple[Prose, ...] = ()
    #: The line of its opening ``#``/``##`` heading when text on no card follows it, and of
    #: a reveal item left with an empty answer at its end (0: none): the file joins them
    #: across a section cut (AG142, ``parse.lost_text``).
    edges: tuple[int, int] = (0, 0)


_CODEC = Codec([SectionResult])
#: The sections of one deck, by key (``section_key``), lines counted from each section's start.
SectionCache = Memo[SectionResult]


def section_cache(
    store: Store | None,
    stem: str,
    decoded: Decoded | None = None,
    tuning: CacheTuning = DEFAULT_TUNING,
) -> SectionCache:
    """The sections of deck ``stem`` the last parse stored (``store``: None keeps nothing;
    ``tuning.held_values``: this parse's records held in memory until saved)."""
    return Memo(store, _KIND, stem, record, read_record, decoded, tuning.held_values)


def record(result: SectionResult, start: int) -> bytes:
    """``result`` as the bytes of one record, its lines counted from ``start``."""
    edges = _moved(result.edges, -start)
    return _CODEC.dumps(dataclasses.replace(result, edges=edges), start)


def read_record(stored: bytes, start: int) -> SectionResult:
    """The inverse of ``record``; bytes of another shape raise TypeError or ValueError."""
    result = _CODEC.loads(stored, start)
    if not isinstance(result, SectionResult):
        raise TypeError("not a section's result")
    return dataclasses.replace(result, edges=_moved(result.edges, start))


def _moved(edges: tuple[int, int], by: int) -> tuple[int, int]:
    """Edge lines moved ``by`` lines (0 stays 0: no edge)."""
    first, last = edges
    return (first + by if first else 0, last + by if last else 0)


def section_key(*parts: str) -> bytes:
    """The cache key of a section: its text and context, and the parser's code."""
    key: bytes = build_key(_KIND, str(_FORMAT), *parts).digest()
    return key
