"""Frozen sections of earlier builds, so an edit re-parses only the sections it touched.

Each section's result (its items, formulas and diagnostics) is stored under a
hash of everything that shapes it: the section's text, the front matter, the
deck key, the file's display path, and the code that parses (every file of
the ``ankigen`` package and the versions of the libraries that shape output,
see ``ankigen.cache.recipe``). Lines are stored counted from the
section's first line, so a section that only moves (a line added above it)
is still a hit. Any other change is a miss, and a miss is parsed as usual.

The results are rows of the build cache's store (``ankigen.cache.store``, kind
``sections``, one scope per deck), written by its generic codec
(``ankigen.cache.codec``: a field added to ``model.Item`` is written with the
others) and sealed with the build folder's secret: a row written by anyone
else is a miss, and so is one that does not decode.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass

from ankigen.cache import Codec, Rows, Store, build_key
from ankigen.diagnostics import Diagnostic
from ankigen.model import CodeBlock, Item, Prose

__all__ = ["SectionCache", "SectionResult", "read_record", "record", "section_key"]

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


class SectionCache:
    """Section results of one deck's last parse, and this parse's for the next.

    ``save`` puts this parse's records (only those) in place of the last ones;
    a cache that is not saved changes nothing.
    """

    def __init__(self, store: Store | None, stem: str) -> None:
        """``store``: the build cache's (None: nothing is reused or kept); ``stem``: the deck's."""
        self._rows = Rows(store, _KIND, stem)
        self.hits = 0

    def __enter__(self) -> SectionCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self._rows.last = {}

    def get(self, key: str, start: int) -> SectionResult | None:
        """The stored result for ``key``, its lines moved to a section starting at ``start``."""
        name = bytes.fromhex(key)
        stored = self._rows.last.get(name)
        if stored is None:
            return None
        try:
            result = read_record(stored, start)
        except (TypeError, ValueError):
            return None
        self.hits += 1
        self._rows.keep(name, stored)
        return result

    def put(self, key: str, result: SectionResult, start: int) -> None:
        """Remember a freshly parsed section that starts at line ``start`` (0-based)."""
        # a value the codec does not write is parsed again next time
        with contextlib.suppress(TypeError, ValueError):
            self._rows.keep(bytes.fromhex(key), record(result, start))

    def holds(self, key: str) -> bool:
        """Whether the last parse stored ``key`` (``get`` may still refuse a damaged record)."""
        return bytes.fromhex(key) in self._rows.last

    def save(self) -> None:
        """Put this parse's sections (only those) in place of the last ones, if they changed."""
        self._rows.save()


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


def section_key(*parts: str) -> str:
    """The cache key of a section: its text and context, and the parser's code."""
    digest = build_key(_KIND, str(_FORMAT), *parts)
    return str(digest.hexdigest())
