"""Where each formula of an item starts (the 1-based column of its opening ``$``),
and where each image's target is written.

markdown-it notes no column on an inline token, so each formula is found in
its source line, left to right: the item's formulas come in the order the
question and then the answer show them, which is their order in the source.
Images are found the same way, by their ``](target`` (or an ``<img>``'s ``src``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from urllib.parse import unquote

from ankigen.model import Fragment, ImageRef, Math

__all__ = ["with_columns"]

#: An HTML ``src`` attribute up to its value (an ``<img>`` tag's, format §16).
_SRC = re.compile(r"(?P<src>\bsrc)\s*=\s*[\"']?", re.IGNORECASE)
#: The ``src`` attribute of the next ``<img>`` tag, whatever its value is written as.
_IMG_SRC = re.compile(r"<img\b[^>]*?(?P<src>\bsrc)\s*=", re.IGNORECASE)


def with_columns(lines: Sequence[str], *fragments: Fragment) -> tuple[Fragment, ...]:
    """``fragments`` (one item's, in source order) with the column of each formula and image."""
    finder, image_finder = _Finder(lines), _Finder(lines)  # formulas and images apart
    return tuple(_placed(fragment, finder, image_finder) for fragment in fragments)


def _placed(fragment: Fragment, finder: _Finder, image_finder: _Finder) -> Fragment:
    if not fragment.maths and not fragment.images:
        return fragment  # the common case: nothing to look for
    maths = tuple(dataclasses.replace(m, column=finder.column(m)) for m in fragment.maths)
    images = tuple(
        dataclasses.replace(i, column=image_finder.image_column(i)) for i in fragment.images
    )
    return dataclasses.replace(fragment, maths=maths, images=images)


class _Finder:
    """Finds formulas in their lines, each search starting after the last one found there."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.cursor: dict[int, int] = {}

    def column(self, math: Math) -> int:
        """The 1-based column of ``math``'s opening delimiter, 0 when it cannot be found.

        The delimiter and the formula's first line are looked for first, then
        the delimiter alone (a ``$$`` block whose TeX starts on the next line).
        """
        delimiter = "$$" if math.display else "$"
        first_line = math.tex.split("\n", 1)[0]
        for needle in (delimiter + first_line, delimiter):
            found = self._find(math.line, needle)
            if found is not None:
                if needle == delimiter:
                    # The TeX is not as written (a block's TeX on the next line, or
                    # expanded macros): step over its closing delimiter too, so the
                    # next formula's search does not take it for an opening one.
                    self._find(math.line, delimiter)
                return found + 1
        return 0

    def image_column(self, image: ImageRef) -> int:
        """The 1-based column of ``image``'s target (after ``](``), 0 when it cannot be found.

        The target is looked for as markdown-it gave it and percent-decoded
        (it encodes spaces and non-ASCII letters).
        """
        for target in dict.fromkeys((image.target, unquote(image.target))):
            found = self._find(image.line, f"]({target}") if target else None
            if found is not None:
                return found + 3
        return self._src_column(image)

    def _src_column(self, image: ImageRef) -> int:
        """The 1-based column of the ``src`` attribute of an HTML ``<img>`` (format §16),
        0 when it cannot be found: the one with this target, else the next one."""
        if not 0 < image.line <= len(self.lines):
            return 0
        text = self.lines[image.line - 1]
        start = self.cursor.get(image.line, 0)
        exact = re.compile(_SRC.pattern + re.escape(image.target), re.IGNORECASE)
        found = exact.search(text, start) or _IMG_SRC.search(text, start)
        if found is None:
            return 0
        self.cursor[image.line] = found.end()
        return found.start("src") + 1

    def _find(self, line: int, needle: str) -> int | None:
        """0-based column of ``needle`` in ``line``, not escaped (``\\$``), or None."""
        if not 0 < line <= len(self.lines):
            return None
        text = self.lines[line - 1]
        index = text.find(needle, self.cursor.get(line, 0))
        while index > 0 and text[index - 1] == "\\":
            index = text.find(needle, index + 1)
        if index < 0:
            return None
        self.cursor[line] = index + len(needle)
        return index
