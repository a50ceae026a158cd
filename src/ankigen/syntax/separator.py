"""The ``:::`` between a question and its answer: the one reader of that separator.

``:::`` separates only when it stands apart from the words around it: just
before it white space or the start of the text, just after it white space
or the end. The walker asks :func:`matches` for separators in a text token
and :func:`in_source` for the same cut in the markdown source; a line that
holds no separator is asked :func:`near_misses` for one that was probably
meant (``q?:::a``, ``Term:::Definition``, ``q :: a``, ``q :::: a``, ``q?:: a``,
``Term::Definition``, ``::a`` at a line's start, ``q : : : a``, three colons
typed full width by a CJK input method). Other tools' marks of a card that
are no colons (``Q:``/``A:`` lines, a ``?`` line, ``>>``, a TAB, ``#card``)
are :mod:`ankigen.syntax.habits`'. A line with a separator is asked
:func:`fence_after` for a code fence written after it (``Q ::: ```cpp``),
which opens no code block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ankigen.diagnostics import Code
from ankigen.syntax import Finding

SEPARATOR = ":::"
#: White space or the start before, white space or the end after. The colons come
#: first and the test of what stands before them after (``(?<!\S:::)``: the places of
#: ``(?:(?<=\s)|^):::``), so that the engine looks for the colons alone, several times
#: faster over a long paragraph than trying the test at every character.
_SEPARATOR = re.compile(r":::(?<!\S:::)(?=\s|$)")
#: The same in a paragraph's source (a line start follows a newline, white space).
_SOURCE_SEPARATOR = _SEPARATOR
_COLONS = re.compile(r":{2,}")

GLUED = Code.SEPARATOR_GLUED
FULL_WIDTH = Code.SEPARATOR_FULL_WIDTH
WRONG_LENGTH = Code.SEPARATOR_LENGTH
TWO_GLUED = Code.SEPARATOR_TWO_COLONS_GLUED
SPACED_COLONS = Code.SEPARATOR_SPACED
FENCE_AFTER_SEPARATOR = Code.FENCE_AFTER_SEPARATOR
#: How a near miss's message ends in a list item, where no item can stand (format §15).
IN_LIST_ITEM = ", as a paragraph of its own without the list marker"

#: Colons with white space between them, three in all (``: : :``, ``:: :``, ``: ::``).
_SPACED = re.compile(r"(?<![:\S]):+(?:[ \t]+:+)+(?=\s|$)")
#: The colon a CJK input method types (U+FF1A), and three colons with one or more of it.
FULL_WIDTH_COLON = "\uff1a"
_WIDE = re.compile(r"(?<![:\uff1a])[:\uff1a]{3}(?![:\uff1a])")


def matches(text: str, escaped: Sequence[int] = ()) -> Iterator[re.Match[str]]:
    """The separators in one text token, in order.

    ``escaped``: the offsets of colons the author escaped (``\\:``, noted by
    ``parse.rules.escaped_colon``): text, so no separator holds one.
    """
    if SEPARATOR not in text:
        return iter(())  # the common case: a plain substring test is far cheaper
    found = _SEPARATOR.finditer(text)
    if not escaped:
        return found
    return (m for m in found if not any(m.start() <= at < m.end() for at in escaped))


def count(text: str) -> int:
    """How many separator-shaped ``:::`` a piece of text (code, math) holds."""
    return len(_SEPARATOR.findall(text)) if SEPARATOR in text else 0


#: A code fence's opening marker and info string written after a separator on its
#: line (``::: ```cpp``): what is left of the line after ``:::`` and white space. A
#: backtick fence's info string holds no backtick (else it is a code span) and no
#: masked token.
_FENCE_AFTER = re.compile("[ \t]+(`{3,}[^`\ufffc]*|~{3,}[^\ufffc]*)$")


def fence_after(line: str) -> list[Finding]:
    """A code fence opened after the line's separator (``Q ::: ```cpp``): not a fence.

    Markdown opens a fence only at the start of a line, so the code after it
    is answer text and the fence written to close it opens a block instead,
    which runs over the items below it. ``line`` is masked as for
    :func:`near_misses` (code spans are no fence).
    """
    first = next(matches(line), None)
    written = _FENCE_AFTER.match(line, first.end()) if first is not None else None
    if written is None:
        return []
    fence = written.group(1).rstrip()
    message = FENCE_AFTER_SEPARATOR.message(fence=fence)
    return [Finding(written.start(1), fence, message, FENCE_AFTER_SEPARATOR, is_warning=True)]


def is_fence_after(finding: Finding) -> bool:
    """True for a finding of :func:`fence_after` (its snippet is the fence as written; no
    other finding of a line with a separator starts so)."""
    return finding.snippet[:3] in ("```", "~~~")


def in_source(source: str) -> list[tuple[int, int]]:
    """Start and end of each separator in a paragraph's markdown source."""
    if SEPARATOR not in source:
        return []
    return [(m.start(), m.end()) for m in _SOURCE_SEPARATOR.finditer(source)]


def near_misses(line: str, where: str = "") -> list[Finding]:
    """Colons in a line without a separator that were probably meant as one (warnings).

    ``line`` is the line's text with code, math and cloze markers masked by
    the caller, so ``::`` in code, math or a cloze hint is never read here.
    ``:::`` glued to the text on either side (``mode?:::The``,
    ``Nucleus:::Contains``, ``a :::b``), three colons typed full width
    (U+FF1A, by a CJK input method), and ``::`` or ``::::`` standing apart
    like a separator, are reported; a quoted or bracketed ``':::'`` and a
    ``:::`` in a web address are text. ``where`` ends each message: empty in a
    paragraph, :data:`IN_LIST_ITEM` in a list item.
    """
    found: list[Finding] = []
    if "::" not in line and ": :" not in line and FULL_WIDTH_COLON not in line:
        return found  # the common case, cheaply
    odd = _spaced(line, where) + _full_width(line, where)
    found.extend(odd)
    taken = {f.start + i for f in odd for i in range(len(f.snippet))}
    runs = list(_COLONS.finditer(line))
    two_glued = [run for run in runs if len(run.group(0)) == 2]
    for run in runs:
        if run.start() in taken:
            continue
        before = line[run.start() - 1] if run.start() > 0 else " "
        after = line[run.end()] if run.end() < len(line) else " "
        apart = before.isspace() and after.isspace()
        written = run.group(0)
        if len(written) == 3 and not apart and _looks_meant(before, after):
            # The words around it, found from the run (not by splitting the whole line
            # for each run: a line of many glued ":::" would take quadratic time).
            word_before = line[line.rfind(" ", 0, run.start()) + 1 : run.start()]
            after_end = line.find(" ", run.end())
            word_after = line[run.end() : after_end if after_end >= 0 else len(line)]
            if _is_address(word_before + written + word_after):
                continue
            message = GLUED.message(before=_word(word_before), after=_word(word_after), where=where)
            found.append(Finding(run.start(), written, message, GLUED, is_warning=True))
        elif len(written) in (2, 4) and apart:
            message = WRONG_LENGTH.message(written=written, where=where)
            found.append(Finding(run.start(), written, message, WRONG_LENGTH, is_warning=True))
        elif (
            len(written) == 2
            and _two_colons_meant(line, run)
            and (len(two_glued) == 1 or _last_glued(line, run, runs[-1]))
        ):
            found.append(_two_glued(line, run, where))
    return found


def _spaced(line: str, where: str) -> list[Finding]:
    """Three colons split by white space (``q : : : a``, ``q :: : a``): a separator meant."""
    found: list[Finding] = []
    for run in _SPACED.finditer(line):
        written = run.group(0)
        if written.count(":") == 3:
            message = SPACED_COLONS.message(written=written, where=where)
            found.append(Finding(run.start(), written, message, SPACED_COLONS, is_warning=True))
    return found


def _full_width(line: str, where: str) -> list[Finding]:
    """Three colons, one or more of them full width (U+FF1A, from a CJK input method): a
    separator meant (``話す`` then three of them then ``to speak``)."""
    found: list[Finding] = []
    if FULL_WIDTH_COLON not in line:
        return found
    for run in _WIDE.finditer(line):
        written = run.group(0)
        if FULL_WIDTH_COLON in written:
            message = FULL_WIDTH.message(written=written, where=where)
            found.append(Finding(run.start(), written, message, FULL_WIDTH, is_warning=True))
    return found


#: What ends a question or a term before a glued ``::`` (``space?:: The``).
_ENDS = frozenset("?.!)*_\ufffc")
#: A word around ``::`` holding one of these is code or a path (``a/b::c``, ``Vec<T>::new``).
_CODE_MARKS = frozenset("<>/\\_$@=[]{}")
#: Just before ``::``, these end a language's name (``C++::``, ``C#::``).
_LANGUAGE_ENDS = frozenset("+#")
#: A word of hexadecimal digits, colons and dots: an address (``fe80::1``), not a card.
_ADDRESS_WORD = re.compile(r"[0-9a-fA-F:.%]+")
_MASK = "\ufffc"


def _two_colons_meant(line: str, run: re.Match[str]) -> bool:
    """True when ``::`` glued to a side was probably a separator, not code or prose.

    ``::answer`` at a line's start, ``question?::answer`` (whatever the
    question holds or the answer starts with: ``C++?::``, ``'a'?::'b'``) and
    the Obsidian habit ``Term::Definition`` were meant; ``std::vector``,
    ``C++::``, ``String::new()``, ``fe80::1`` and a quoted ``'::'`` were not.
    After a letter or digit, only an answer starting with a capital, a digit,
    a quote or a formula counts, so that a scope in prose (``the std::
    namespace``) stays silent.
    """
    before = line[run.start() - 1] if run.start() > 0 else " "
    rest = line[run.end() :]
    after = rest[:1] or " "
    if before in _QUOTES or before in "([" or after in ")]":
        return False
    if before == "?":
        return True
    word_before = line[: run.start()].rsplit(None, 1)[-1] if line[: run.start()].strip() else ""
    word_after = rest.split(None, 1)[0] if rest.strip() else ""
    if after in _QUOTES:
        return before.isalnum()  # "mitosis::'cell division'"; "'::'" is written about
    if before in _LANGUAGE_ENDS or any(c in _CODE_MARKS for c in word_before + word_after):
        return False
    if before.isspace():
        return after.isalnum() or after == _MASK
    if before in _ENDS:
        return True
    if not before.isalnum():
        return False
    answer = rest.lstrip()[:1]
    if answer.isdigit():
        return not _ADDRESS_WORD.fullmatch(f"{word_before}::{word_after}")  # '2+2::4'
    if not (answer.isupper() or answer == _MASK):
        return False
    # 'Eigen::Matrix<float>', 'Foo::Bar()', 'Foo::Bar.baz': a scope, not a card
    return not any(c in word_after for c in "(.:")


def _last_glued(line: str, run: re.Match[str], last: re.Match[str]) -> bool:
    """True for a glued ``::`` meant as a separator on a line holding other ``::``.

    ``question?::answer`` wherever it stands (``std::unique_ptr?::A box``);
    else only the line's last ``::``, the only one in its word, followed by
    code, a formula, a digit or a quote rather than a name (``Iterator::next
    signature::`fn next()```): ``Parent::Child and A::B`` is a list of paths.
    """
    if run.start() > 0 and line[run.start() - 1] == "?":
        return True
    if run is not last:
        return False
    head, tail = line[: run.start()], line[run.end() :]
    word = (head.rsplit(None, 1)[-1] if head.strip() else "") + (tail.split(None, 1) or [""])[0]
    return "::" not in word and (tail[:1] in (_MASK, *_QUOTES) or tail[:1].isdigit())


def _two_glued(line: str, run: re.Match[str], where: str) -> Finding:
    """The warning for a glued ``::``, showing the words around it and the fix."""
    head = line[: run.start()]
    start = len(head.rstrip()) - len(head.rstrip().split(" ")[-1]) if head.strip() else 0
    tail = line[run.end() :]
    gap = len(tail) - len(tail.lstrip())
    end = run.end() + gap + len(tail.lstrip().split(" ")[0])
    shown = _word(line[start:end])
    fix = f"{_word(head[start:])} ::: {_word(line[run.end() : end])}".strip()
    message = TWO_GLUED.message(written=shown, meant=fix, where=where)
    lead = head[start:].rsplit(_MASK, 1)[-1]  # found with the text before it: 'a::b?::c'
    return Finding(run.start(), "::", message, TWO_GLUED, is_warning=True, lead=lead)


#: A ``:::`` glued to these is quoted or bracketed: written about, not meant.
_QUOTES = frozenset("'\"`\u2018\u2019\u201c\u201d\u00ab\u00bb")
#: A word that is a web address (``https://…``, ``www.…``): its colons are the address's.
_ADDRESS = re.compile(r"://|^[(\[<]?www\.", re.IGNORECASE)


def _looks_meant(before: str, after: str) -> bool:
    """True when a glued ``:::`` between ``before`` and ``after`` was probably a separator.

    Format section 13: a ``:::`` with no white space on one side is a near miss,
    whatever it is glued to (``mode?:::The``, ``Nucleus:::Contains``, ``a:::b``):
    three colons in a row are no punctuation of prose. Only a ``:::`` quoted or
    bracketed (written about, ``':::'``) is text.
    """
    return not (before in _QUOTES or after in _QUOTES or before in "([" or after in ")]")


def _is_address(word: str) -> bool:
    """True for a word that is a web address, whose colons are not a separator."""
    return _ADDRESS.search(word) is not None


def _word(text: str) -> str:
    """A word next to a near miss as shown in a message: masked tokens left out."""
    return text.replace("\ufffc", "").strip()
