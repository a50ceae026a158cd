"""A file's text and where its sections are, each section's text cut when it is parsed."""

from __future__ import annotations

from ankigen.parse.sections import Section

__all__ = ["SectionText"]


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
