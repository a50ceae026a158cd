"""A file's text and where its sections are, each section's text cut when it is parsed.

Before parse workers are forked (``parse.parallel``), the text moves from a
string into a shared anonymous map (``share``), as UTF-8. A forked process
inherits a copy of every private page of its parent, and the file's text was
the biggest of them (43 MB at 100,000 items, counted again in every worker's
resident memory); the kernel does not copy a shared map's pages into a child:
a worker maps only the pages of the sections it reads, and drops them once
it has parsed them (``forget``). The sections read back are the same
strings: ``tests/parse/test_section_text.py``.
"""

from __future__ import annotations

import mmap

from ankigen.parse.sections import Section

__all__ = ["SectionText"]

#: Strings round-trip through the map exactly, lone surrogates included.
_ENCODING = ("utf-8", "surrogatepass")


class SectionText:
    """The text of a file of ``total`` lines and its sections (``starts``: each one's first
    line; ``bounds``: where each one begins in the text, then the text's end)."""

    def __init__(self, text: str, starts: list[int], bounds: list[int], total: int) -> None:
        self.starts = starts
        self.total = total
        self._bounds = bounds
        self._text: str | None = text
        self._map: mmap.mmap | None = None
        self._bytes: list[int] = []  # where each section begins in the map, once shared

    def __len__(self) -> int:
        return len(self.starts)

    def section(self, number: int) -> Section:
        """Section ``number`` (0-based), its text cut from the file's."""
        start, end = self._bounds[number], self._bounds[number + 1]
        if self._text is not None:
            return Section(self.starts[number], self._text[start:end])
        assert self._map is not None
        data = self._map[self._bytes[number] : self._bytes[number + 1]]
        return Section(self.starts[number], data.decode(*_ENCODING))

    def chars(self, number: int) -> int:
        """The length of section ``number``'s text."""
        return self._bounds[number + 1] - self._bounds[number]

    def whole(self) -> str:
        """The file's whole text."""
        if self._text is not None:
            return self._text
        assert self._map is not None
        return self._map[:].decode(*_ENCODING)

    def share(self) -> None:
        """Move the text into a shared map (before forking), written a section at a time.

        The string is let go: freed when nothing else holds it.
        """
        if not self._text:
            return  # shared already, or nothing to share (a map cannot be empty)
        text, self._text = self._text, None
        size = len(text) if text.isascii() else len(text.encode(*_ENCODING))
        self._map = mmap.mmap(-1, size)  # anonymous and shared (the default on Unix)
        self._bytes = [0]
        for start, end in zip(self._bounds, self._bounds[1:], strict=False):
            self._map.write(text[start:end].encode(*_ENCODING))
            self._bytes.append(self._map.tell())

    def forget(self) -> None:
        """Unmap every page of the shared text this process has read (a worker, after
        each chunk).

        Only this process's mapping goes: the text stays in the map for whoever
        reads it next (a page is mapped again when read). All of it, not only
        the pages of the sections read: a read maps the pages around it too
        (the kernel's fault-around), which would otherwise stay.
        """
        if self._map is not None:
            self._map.madvise(mmap.MADV_DONTNEED)
