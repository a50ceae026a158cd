"""A big file's sections parsed by one of the build's pool workers as well as here (issue 21).

A section parses alone exactly as it parses in the file (``parse.sections``),
so the sections the cache does not hold can be parsed anywhere. When they
hold at least ``PoolTuning.parse_min_chars`` characters and the build has a
pool, they are cut into chunks of about ``parse_chunk_chars``. This process
parses from the first chunk on; one worker parses from the last chunk back,
a piece at a time (a few chunks first, then a third of what is left, so the
two parse about as much meanwhile), sent by this process between two of its
own chunks once the worker's last piece came back (only one piece of work in the pool at
a time, so no second worker is started for it: each costs its imports, and
two would leave this process no core on a 2-core machine). The two meet
wherever they meet, whatever each core's load. Results are put together in
the file's order: the deck, its diagnostics and the cache are a serial
parse's, whatever ran where (``tests/parse/test_pooled_parse.py``). A piece
whose worker died is parsed here.

A worker sends each result back as the section cache's record (``record``),
not pickled: this process decodes a record three times faster than it
unpickles the same result, and stores the record as it came.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, wait
from concurrent.futures.process import BrokenProcessPool

from ankigen.build.pool import BuildPool
from ankigen.parse.collector import collector_paused
from ankigen.parse.section_cache import SectionResult, read_record, record
from ankigen.parse.section_text import SomeSections
from ankigen.parse.sections import Section

__all__ = ["Parsed", "parse_sections"]

#: A fresh parse of one section (picklable: it may run in a worker).
ParseOne = Callable[[Section], SectionResult]
#: A section's result, and its record when a worker made one (to store as it is).
Parsed = tuple[SectionResult, bytes | None]


def parse_sections(
    sections: SomeSections, parse_one: ParseOne, pool: BuildPool | None
) -> Iterator[Parsed]:
    """``parse_one`` of every section, in order; a big file's partly in one pool worker.

    Each section's text is cut when it is parsed or sent (``SomeSections``). The
    worker's results are decoded as they are taken, each record let go once
    taken: held until the last was decoded, the records of a 100,000-item file
    made the build's peak about 30 MB higher than a serial parse's.
    """
    chars = sections.chars()
    if pool is None or len(sections) < 2 or chars < pool.tuning.parse_min_chars:
        return iter([(parse_one(section), None) for section in sections])
    size = max(1, round(len(sections) * pool.tuning.parse_chunk_chars / chars))
    chunks = [range(at, min(at + size, len(sections))) for at in range(0, len(sections), size)]
    rest = chars >= pool.tuning.parse_rest_chars
    return _Meeting(sections, chunks, parse_one, pool).results(rest)


class _Meeting:
    """Chunks (of section numbers) taken from the front by this process and from the
    back by one worker."""

    def __init__(
        self, sections: SomeSections, chunks: list[range], parse_one: ParseOne, pool: BuildPool
    ) -> None:
        self._sections, self._chunks = sections, chunks
        self._parse_one, self._pool = parse_one, pool
        self._back = len(chunks)  # the first chunk sent to the worker so far
        #: What the worker was sent, the last chunks first: its sections, and their future.
        self._sent: list[tuple[range, Future[list[Wired]]]] = []

    def results(self, rest: bool) -> Iterator[Parsed]:
        """Every chunk's results, in the file's order (the worker's decoded as they are
        taken); with ``rest``, the pool's workers end once the worker's last piece is
        back, before its records are decoded here."""
        results: list[Parsed] = []
        front = 0
        while front < self._back:
            self._feed(front)
            if front < self._back:
                chunk = self._chunks[front]
                results.extend((self._parse_one(self._sections[n]), None) for n in chunk)
                front += 1
        wait([future for _, future in self._sent])
        if rest:
            # A worker keeps the memory its parse used (about 95 MB for the 21 MB of sections
            # it parsed at 100,000 items): it ends, and drawing, if any, starts a fresh one.
            self._pool.close()
        sent, self._sent = self._sent[::-1], []
        return itertools.chain(results, self._worker_results(sent))

    def _feed(self, front: int) -> None:
        """Send the worker the chunks before the last it took, once it is done with those
        (``front``: the next chunk this process parses, which it keeps)."""
        if self._sent and not self._sent[-1][1].done():
            return
        tuning = self._pool.tuning
        size = tuning.parse_chunks_sent
        if self._sent:  # the worker is up: a third of what is left, while this process parses
            most = max(size, tuning.parse_piece_chars // tuning.parse_chunk_chars)
            size = min(max(size, (self._back - front) // 3), most)  # another third meanwhile
        first = max(front + 1, self._back - size)
        if first >= self._back:
            return
        numbers = range(self._chunks[first].start, self._chunks[self._back - 1].stop)
        self._back = first
        future = self._pool.submit(
            _parse_all, self._parse_one, self._sections[numbers.start : numbers.stop]
        )
        self._sent.append((numbers, future))

    def _worker_results(self, sent: list[tuple[range, Future[list[Wired]]]]) -> Iterator[Parsed]:
        """What the worker parsed, piece by piece in the file's order (``sent``); a piece
        is parsed here when its worker died. Each piece and each record is dropped once
        taken: only the one being decoded is held."""
        while sent:
            numbers, future = sent.pop(0)
            try:
                wired = future.result()
            except BrokenProcessPool:
                yield from ((self._parse_one(self._sections[n]), None) for n in numbers)
                continue
            finally:
                del future  # the piece's list is held by ``wired`` alone now
            if len(wired) != len(numbers):
                raise ValueError("a worker sent a piece of another length")
            wired.reverse()  # taken from the end: each record dropped as it is decoded
            for number in numbers:
                yield _unwired(wired.pop(), self._sections.start(number))


#: A worker's result for one section: its record, or the result itself if it has none.
Wired = bytes | SectionResult


def _parse_all(parse_one: ParseOne, sections: Sequence[Section]) -> list[Wired]:
    """In a worker: ``parse_one`` of each section, as its record."""
    with collector_paused():
        return [_wired(parse_one(section), section.start) for section in sections]


def _wired(result: SectionResult, start: int) -> Wired:
    """``result`` as its record; itself (pickled) when the codec cannot write it."""
    try:
        return record(result, start)
    except (TypeError, ValueError):
        return result


def _unwired(sent: Wired, start: int) -> Parsed:
    """A worker's result for the section at line ``start`` and its record (None: it came
    without one)."""
    if isinstance(sent, SectionResult):
        return sent, None
    return read_record(sent, start), sent
