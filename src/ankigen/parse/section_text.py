"""A file's text and where its sections are, each section's text cut when it is parsed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from ankigen.parse.sections import Section

__all__ = ["SectionText", "SomeSections"]


class SectionText:
    """The text of a file of ``total`` lines and its sections (``starts``: each one's first
    line; ``bounds``: where each one begins in the text, then the text's end)."""

    def __init__(self, text: str, starts: list[int], bounds: list[int], total: int) -> None:
        self.starts = starts
        self.total = total
        self._bounds = bounds
        self._text = text

    def __len__(self) -> int:
        return len(self.starts)

    def section(self, number: int) -> Section:
        """Section ``number`` (0-based), its text cut from the file's."""
        start, end = self._bounds[number], self._bounds[number + 1]
        return Section(self.starts[number], self._text[start:end])

    def chars(self, number: int) -> int:
        """The length of section ``number``'s text."""
        return self._bounds[number + 1] - self._bounds[number]

    def whole(self) -> str:
        """The file's whole text."""
        return self._text


class SomeSections(Sequence[Section]):
    """Some sections of a file (``numbers``), each cut from the file's text when asked
    for: the file's text is held once while they are parsed, not again in pieces (a
    100,000-item file is 43 MB)."""

    def __init__(self, text: SectionText, numbers: Sequence[int]) -> None:
        self._text = text
        self._numbers = numbers

    def __len__(self) -> int:
        return len(self._numbers)

    @overload
    def __getitem__(self, index: int) -> Section: ...

    @overload
    def __getitem__(self, index: slice) -> list[Section]: ...

    def __getitem__(self, index: int | slice) -> Section | list[Section]:
        if isinstance(index, slice):
            return [self._text.section(number) for number in self._numbers[index]]
        return self._text.section(self._numbers[index])

    def start(self, index: int) -> int:
        """The first line of section ``index`` (its text is not cut)."""
        return self._text.starts[self._numbers[index]]

    def chars(self) -> int:
        """The length of these sections' texts, all told."""
        return sum(self._text.chars(number) for number in self._numbers)
