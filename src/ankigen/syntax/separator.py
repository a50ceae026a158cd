"""The ``:::`` between a question and its answer: the one reader of that separator.

``:::`` separates only when it stands apart from the words around it: just
before it white space or the start of the text, just after it white space
or the end. The walker asks :func:`matches` for separators in a text token
and :func:`in_source` for the same cut in the markdown source; a line that
holds no separator is asked :func:`near_misses` for one that was probably
meant (``q?:::a``, ``q :: a``, ``q :::: a``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ankigen.syntax import Finding

SEPARATOR = ":::"
#: White space or the start before, white space or the end after. Written with
#: ``(?<!\S)`` rather than ``(?:(?<=\s)|^)`` (the same places): it scans faster.
_SEPARATOR = re.compile(r"(?<!\S):::(?=\s|$)")
#: The same in a paragraph's source (a line start follows a newline, white space).
_SOURCE_SEPARATOR = _SEPARATOR
_COLONS = re.compile(r":{2,}")

GLUED = "AG520"
WRONG_LENGTH = "AG521"


def matches(text: str) -> Iterator[re.Match[str]]:
    """The separators in one text token, in order."""
    if SEPARATOR not in text:
        return iter(())  # the common case: a plain substring test is far cheaper
    return _SEPARATOR.finditer(text)


def count(text: str) -> int:
    """How many separator-shaped ``:::`` a piece of text (code, math) holds."""
    return len(_SEPARATOR.findall(text)) if SEPARATOR in text else 0


def in_source(source: str) -> list[tuple[int, int]]:
    """Start and end of each separator in a paragraph's markdown source."""
    if SEPARATOR not in source:
        return []
    return [(m.start(), m.end()) for m in _SOURCE_SEPARATOR.finditer(source)]


def near_misses(line: str) -> list[Finding]:
    """Colons in a line without a separator that were probably meant as one (warnings).

    ``line`` is the line's text with code, math and cloze markers masked by
    the caller, so ``::`` in code, math or a cloze hint is never read here.
    ``:::`` glued to a word on one side, or on both after the end of a
    question (``mode?:::The``), and ``::`` or ``::::`` standing apart like a
    separator, are reported; ``a:::b`` and a quoted ``':::'`` are text.
    """
    found: list[Finding] = []
    if "::" not in line:
        return found  # the common case, cheaply
    for run in _COLONS.finditer(line):
        before = line[run.start() - 1] if run.start() > 0 else " "
        after = line[run.end()] if run.end() < len(line) else " "
        apart = before.isspace() and after.isspace()
        written = run.group(0)
        if len(written) == 3 and not apart and _looks_meant(before, after):
            # The words around it, found from the run (not by splitting the whole line
            # for each run: a line of many glued ":::" would take quadratic time).
            word_before = _word(line[line.rfind(" ", 0, run.start()) + 1 : run.start()])
            after_end = line.find(" ", run.end())
            word_after = _word(line[run.end() : after_end if after_end >= 0 else len(line)])
            message = (
                f"'{word_before}:::{word_after}' is not a separator: write "
                f"'{word_before} ::: {word_after}', with white space on both sides"
            )
            found.append(Finding(run.start(), written, message, GLUED, is_warning=True))
        elif len(written) in (2, 4) and apart:
            message = f"'{written}' is not a separator: write ':::', as in 'question ::: answer'"
            found.append(Finding(run.start(), written, message, WRONG_LENGTH, is_warning=True))
    return found


#: A ``:::`` glued to these is quoted or bracketed: written about, not meant.
_QUOTES = frozenset("'\"`\u2018\u2019\u201c\u201d\u00ab\u00bb")
#: What ends a question: a ``:::`` glued to it on both sides was still meant
#: (``mode?:::The``); between two letters or digits it is text (``a:::b``, ``2:::1``).
_QUESTION_ENDS = frozenset("?.!:)*_\ufffc")


def _looks_meant(before: str, after: str) -> bool:
    """True when a glued ``:::`` between ``before`` and ``after`` was probably a separator."""
    if before in _QUOTES or after in _QUOTES or before in "([" or after in ")]":
        return False
    if before.isspace() or after.isspace():
        return True
    return before in _QUESTION_ENDS


def _word(text: str) -> str:
    """A word next to a near miss as shown in a message: masked tokens left out."""
    return text.replace("\ufffc", "").strip()
