"""A file's sections parsed on several cores and merged in the file's order (issue 12).

Sections parse alone exactly as they parse in the file (``parse.sections``),
so the sections the cache does not hold can be parsed anywhere: this process
and forked workers share them in chunks (``parse.workers``). A worker sends a
chunk's results as section-cache records (``parse.section_cache.record``):
cheaper to send and to read back than pickled dataclasses, and written to
the cache as they are, so this process encodes nothing it did not parse
itself. Without a cache (``ankigen check``) they are pickled, which is cheaper
to read back when nothing is written.

Results are merged here in the file's order, and the cache is written here
only, record after record in that order: the deck, its diagnostics and the
cache file are the serial parse's, whatever the number of workers. A small
file (less than ``MIN_CHARS`` to parse) is parsed here alone: forking and
merging would cost more than the second core saves.
"""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field

from ankigen.parse.section_cache import (
    SectionCache,
    SectionResult,
    read_record,
    record,
    section_key,
)
from ankigen.parse.section_text import SectionText
from ankigen.parse.sections import Section
from ankigen.parse.workers import MAX_CHUNKS, can_fork, share_chunks

__all__ = ["CHUNK_CHARS", "MIN_CHARS", "parse_rest"]

#: Characters of sections to parse below which no worker is forked. Measured: a pool costs
#: 3-8 ms of wall time (4 ms of CPU) and reading results back about 4% of their parse, and
#: parsing runs at about 1.7 MB of the benchmark bank per second; so below this a worker
#: would save under about 30 ms, not worth a second process (about 35 MB of resident memory
#: inherited at the fork, which a summed RSS counts twice). The seed deck is 31 KB.
MIN_CHARS = 128_000
#: Characters per chunk handed out at once, about 10 ms of parsing: small, so the parse
#: ends close together on every core even when the machine's other load slows one down.
CHUNK_CHARS = 16_000

#: A fresh parse of one section (markdown-it, the walker and freezing; no cache).
Fresh = Callable[[Section], SectionResult]


def worth_workers(chars: int, jobs: int) -> bool:
    """Whether ``chars`` characters to parse are worth forking for, with ``jobs`` allowed."""
    return jobs > 1 and chars >= MIN_CHARS and can_fork()


def parse_rest(
    sections: SectionText,
    first: int,
    fresh: Fresh,
    cache: SectionCache | None,
    shape: tuple[str, str, str],
    jobs: int,
) -> list[SectionResult]:
    """The results of sections ``first ..``, in order: cached, parsed here, or in workers.

    ``jobs`` is the number of processes to parse in, this one included;
    ``shape`` is what the cache key holds besides a section's text.
    """
    numbers = range(first, len(sections))
    keys = {}
    if cache is not None:
        keys = {n: section_key(*shape, sections.section(n).text) for n in numbers}
    missing = [n for n in numbers if cache is None or not cache.holds(keys[n])]
    chars = sum(map(sections.chars, missing))
    chunks = _chunks(missing, sections, max(CHUNK_CHARS, chars // MAX_CHUNKS + 1))
    merge = _Merge(sections, fresh, cache, keys, set(missing), first)
    workers = min(jobs - 1, len(chunks) - 1)
    if workers < 1 or not worth_workers(chars, jobs):
        merge.flush(final=True)  # every section here, in order: the serial parse
        return merge.done
    transfer = _Records() if cache is not None else _Pickles()

    def work_here(chunk: int) -> None:
        for number in chunks[chunk]:
            merge.parsed(number, fresh(sections.section(number)))

    def work_there(chunk: int) -> bytes:
        done = [(s.start, fresh(s)) for s in map(sections.section, chunks[chunk])]
        sections.forget()  # this worker will not read them again
        return transfer.pack(done)

    def arrived(chunk: int, payload: bytes) -> None:
        chunk_sections = chunks[chunk]
        unpacked = transfer.unpack(payload, [sections.starts[n] for n in chunk_sections])
        for number, (result, stored) in zip(chunk_sections, unpacked, strict=True):
            merge.parsed(number, result, stored)

    sections.share()  # the text is not copied into the workers (``parse.section_text``)
    share_chunks(len(chunks), workers, work_here, work_there, arrived)
    merge.flush(final=True)
    return merge.done


def _chunks(missing: list[int], sections: SectionText, chunk_chars: int) -> list[list[int]]:
    """The sections to parse in runs of about ``chunk_chars`` characters, in order."""
    chunks: list[list[int]] = []
    size = chunk_chars
    for number in missing:
        if size >= chunk_chars:
            chunks.append([])
            size = 0
        chunks[-1].append(number)
        size += sections.chars(number)
    return chunks


@dataclass
class _Merge:
    """Results put back in the file's order, and written to the cache in that order."""

    sections: SectionText
    fresh: Fresh
    cache: SectionCache | None
    keys: dict[int, str]
    missing: set[int]
    next: int
    done: list[SectionResult] = field(default_factory=list)
    waiting: dict[int, tuple[SectionResult, bytes | None]] = field(default_factory=dict)

    def parsed(self, number: int, result: SectionResult, stored: bytes | None = None) -> None:
        """Section ``number``'s fresh result (and its cache record, if a worker made it)."""
        self.waiting[number] = (result, stored)
        self.flush(final=False)

    def flush(self, final: bool) -> None:
        """Take every section that is ready, in order; with ``final``, every section left
        (one no chunk parsed is parsed here: the serial parse, or the end of a parallel one)."""
        while self.next < len(self.sections):
            number = self.next
            if number in self.waiting:
                result, stored = self.waiting.pop(number)
                self._remember(number, result, stored)
            elif number in self.missing and not final:
                return  # not parsed yet: comes later
            else:
                result = self._cached(number) or self._parse(number)
            self.done.append(result)
            self.next += 1

    def _cached(self, number: int) -> SectionResult | None:
        if self.cache is None or number in self.missing:
            return None
        return self.cache.get(self.keys[number], self.sections.starts[number])

    def _parse(self, number: int) -> SectionResult:
        """A section no chunk parsed (the serial parse), or whose record would not decode."""
        result = self.fresh(self.sections.section(number))
        self._remember(number, result, None)
        return result

    def _remember(self, number: int, result: SectionResult, stored: bytes | None) -> None:
        if self.cache is None:
            return
        if stored is not None:
            self.cache.put_record(self.keys[number], stored)
        else:
            self.cache.put(self.keys[number], result, self.sections.starts[number])


class _Records:
    """Results as section-cache records: written to the cache as they arrive."""

    def pack(self, results: list[tuple[int, SectionResult]]) -> bytes:
        return marshal.dumps(tuple(record(result, start) for start, result in results))

    def unpack(self, payload: bytes, starts: list[int]) -> list[tuple[SectionResult, bytes | None]]:
        stored = marshal.loads(payload)
        return [(read_record(one, start), one) for one, start in zip(stored, starts, strict=True)]


class _Pickles:
    """Results pickled: cheaper to read back when there is no cache to write."""

    def pack(self, results: list[tuple[int, SectionResult]]) -> bytes:
        return pickle.dumps([result for _, result in results], protocol=pickle.HIGHEST_PROTOCOL)

    def unpack(self, payload: bytes, starts: list[int]) -> list[tuple[SectionResult, bytes | None]]:
        results: list[SectionResult] = pickle.loads(payload)  # our own worker's bytes
        return [(result, None) for result in results]
