"""Content syntax, one module per construct: every stage that reads it asks that module.

``cloze`` reads cloze markers (in text and in TeX), ``separator`` reads the
``:::`` between question and answer. Each module also knows the near misses
of its construct (format section 13): writing that almost means the construct
but that Anki or the build would read differently, reported as warnings.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """A problem found in a piece of text, by character offset into that text.

    ``snippet`` is the text as written, so a caller can find its column in the
    source line. ``is_warning`` marks near misses; the rest are errors.
    ``lead`` is text written just before the snippet, searched with it when the
    snippet alone may be written earlier on the line (``std::a?::b``).
    """

    start: int
    snippet: str
    message: str
    code: str
    is_warning: bool = False
    lead: str = ""
