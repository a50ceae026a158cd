"""Cloze markers, ``{{cN::text}}`` and ``{{cN::text::hint}}``: the one reader of their syntax.

Parse asks this module whether a paragraph holds a cloze, which numbers it
uses and what is wrong with its markers; render asks it for the clozes of a
formula. Both get the same rules and the same words for the same mistake,
whether the marker stands in text or inside ``$...$``.

Anki reads an opener case-sensitively (``{{C1::`` makes no card) and ends a
cloze at the first ``}}``; the rules below follow that reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ankigen.diagnostics import Code
from ankigen.syntax import Finding
from ankigen.syntax.tex import balanced as _balanced

#: An opening marker, matched case-insensitively and with the number optional,
#: so that ``{{C1::`` and ``{{c::`` can be reported instead of ignored.
OPENER = re.compile(r"\{\{c(\d*)::", re.IGNORECASE)
#: An innermost cloze (one holding no other opener): its text and hint in group 2.
_INNERMOST = re.compile(
    OPENER.pattern + rf"((?:(?!{OPENER.pattern}).)*?)\}}\}}", re.IGNORECASE | re.DOTALL
)
#: Something shaped like an opener: one or two braces, a ``c``, a number, one
#: or two colons, with white space allowed in between (``{{ c1::``, ``{c1::``).
_MARKER_LIKE = re.compile(
    r"(?<!\{)(\{{1,2})([ \t]*)c([ \t]*)(\d+)([ \t]*)(:{1,2})(?!:)", re.IGNORECASE
)

#: An opener or a ``}}``, in text order.
_OPENER_OR_CLOSER = re.compile(OPENER.pattern + r"|\}\}", re.IGNORECASE)
NO_NUMBER = Code.CLOZE_NO_NUMBER
UPPER_CASE = Code.CLOZE_UPPER_CASE
EMPTY = Code.CLOZE_EMPTY
UNCLOSED = Code.CLOZE_UNCLOSED
BRACES = Code.CLOZE_BRACES
STRAY_BRACE = Code.CLOZE_STRAY_BRACE
NESTED_IN_MATH = Code.CLOZE_NESTED_IN_MATH
TOO_HIGH = Code.CLOZE_TOO_HIGH
MARKS_TOO_HIGH = Code.MARKS_TOO_HIGH

#: The highest cloze number Anki makes a card for (``{{c501::`` gives an empty card).
MAX_NUMBER = 500
ONE_COLON = Code.CLOZE_ONE_COLON
ONE_BRACE = Code.CLOZE_ONE_BRACE
SPACED = Code.CLOZE_SPACED


def has_cloze(text: str) -> bool:
    """True when ``text`` holds something Anki or the author would read as a cloze opener."""
    return "{{" in text and OPENER.search(text) is not None  # most text holds no "{{"


def ordinals(text: str) -> list[int]:
    """The numbers of the ``{{cN::`` markers in ``text``, in order (one past
    ``MAX_NUMBER`` stands for any number above it, however many digits it has)."""
    return [number(m.group(1)) for m in OPENER.finditer(text) if m.group(1)]


def number(digits: str) -> int:
    """An opener's number; any number above ``MAX_NUMBER`` is read as ``MAX_NUMBER + 1``
    (never ``int`` on thousands of digits)."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(MAX_NUMBER)):
        return MAX_NUMBER + 1
    return min(int(significant or "0"), MAX_NUMBER + 1)


def spans(text: str) -> list[tuple[int, int]]:
    """Where each cloze of ``text`` starts and ends (its hint included)."""
    if "{{" not in text:
        return []  # the common case: no cloze can start
    return [(opener.start(), close + 2) for opener, close in _clozes(text)]


def _clozes(text: str) -> Iterator[tuple[re.Match[str], int]]:
    """Each whole cloze as Anki matches it, an opener and the first ``}}`` after it (its
    opener, the index of that ``}}``), in one linear pass: a regular expression
    ``opener(.*?)}}`` would scan to the end of the text from every unclosed
    opener (quadratic); this stops at the first one, as no later one can close."""
    position = 0
    while (opener := OPENER.search(text, position)) is not None:
        close = text.find("}}", opener.end())
        if close < 0:
            return  # no later opener can be closed either
        yield opener, close
        position = close + 2


def strip_markers(text: str) -> str:
    """``text`` with every ``{{cN::text::hint}}`` replaced by its text, nested ones too.

    Read as leniently as :data:`OPENER` (any case, number optional), so that a
    formula shows the same with or without markers the author got wrong.
    """
    previous = None
    while previous != text:
        previous = text
        text = _INNERMOST.sub(lambda m: m.group(2).split("::", 1)[0], text)
    return text


def hints(text: str) -> list[str]:
    """The hint of each cloze of ``text`` that has one (``{{c1::k::2 for 4 GPUs}}``), innermost
    clozes first, read as :func:`strip_markers` reads them: a cloze ends at the first
    ``}}``, its hint follows its first ``::``."""
    found: list[str] = []

    def shown(cloze: re.Match[str]) -> str:
        body, sep, hint = cloze.group(2).partition("::")
        if sep:
            found.append(hint)
        return body

    previous = None
    while "{{" in text and previous != text:
        previous = text
        text = _INNERMOST.sub(shown, text)
    return found


def opener(number: int) -> str:
    """The marker that opens cloze ``number``, as ankigen writes it: ``{{cN::``."""
    return "{{c" + str(number) + "::"


def written(number: int, text: str, hint: str | None = None) -> str:
    """A whole cloze as ankigen writes it: ``{{cN::text}}`` or ``{{cN::text::hint}}``."""
    return opener(number) + text + ("" if hint is None else "::" + hint) + "}}"


# --- messages shared by text and math ----------------------------------------


def _opener_finding(opener: re.Match[str]) -> Finding | None:
    digits = opener.group(1)
    written = opener.group(0)
    if written[2] == "C":
        message = UPPER_CASE.message(written=written, digits=digits)
        return Finding(opener.start(), written, message, UPPER_CASE)
    if not digits.strip("0"):
        message = NO_NUMBER.message(written=written)
        return Finding(opener.start(), written, message, NO_NUMBER)
    if number(digits) > MAX_NUMBER:
        return too_high(opener.start(), written)
    return None


def too_high(start: int, written: str) -> Finding:
    """A cloze numbered above ``MAX_NUMBER``: Anki makes an empty card for it."""
    shown = written if len(written) <= 20 else written[:12] + "…" + written[-3:]
    message = TOO_HIGH.message(written=shown, most=MAX_NUMBER)
    return Finding(start, written, message, TOO_HIGH)


def _empty(start: int, written: str) -> Finding:
    return Finding(start, written, EMPTY.message(written=written), EMPTY)


def _unclosed(opener: re.Match[str]) -> Finding:
    written = opener.group(0)
    message = UNCLOSED.message(written=written)
    return Finding(opener.start(), written, message, UNCLOSED)


# --- text ----------------------------------------------------------------------


def text_problems(text: str, plain: str) -> list[Finding]:
    """Malformed clozes in a paragraph: no number, upper case, empty, unclosed, ``}}`` too early.

    ``text`` is the paragraph as Anki will see it, math and code standing in
    as ``x``; ``plain`` keeps every brace of the text itself, so a cloze whose
    own braces run into its ``}}`` can be found.
    """
    problems = [f for f in map(_opener_finding, OPENER.finditer(text)) if f is not None]
    closed = list(_clozes(text))
    for opener, close in closed:
        if not text[opener.end() : close].split("::", 1)[0].strip():
            problems.append(_empty(opener.start(), text[opener.start() : close + 2]))
    depth, counted = 0, 0  # braces of the text before the cloze left open, counted up to
    for opener, close in _clozes(plain):
        before = plain[counted : opener.start()]
        depth, counted = depth + before.count("{") - before.count("}"), opener.start()
        body = plain[opener.end() : close]
        if "{{" not in body and body.count("{") != body.count("}"):
            written = plain[opener.start() : close + 2]
            message = BRACES.message(
                detail=f"cloze '{written}' ends at the first '}}}}', inside "
                "your braces (Anki reads it so): put a space between the braces, '} }}'"
            )
            problems.append(Finding(opener.start(), written, message, BRACES))
        elif plain[close + 2 : close + 3] == "}" and depth <= 0:
            # Balanced braces inside, one more '}' right after, and no '{' before the cloze
            # that it closes ({1, {{c1::2}}} is a set): a typo, shown as text.
            written = plain[opener.start() : close + 3]
            message = STRAY_BRACE.message(written=written)
            problems.append(Finding(opener.start(), written, message, STRAY_BRACE, True))
    problems.extend(map(_unclosed, _left_open(text)))
    return problems


def _left_open(text: str) -> list[re.Match[str]]:
    """The openers no ``}}`` closes, read as Anki's parser reads nested clozes: each
    ``}}`` closes the innermost open cloze, so in ``{{c2::a {{c1::b}} c`` the c2 is
    never closed (Anki drops it, and the c1 inside it, from the card). One pass."""
    open_clozes: list[re.Match[str]] = []
    for token in _OPENER_OR_CLOSER.finditer(text):
        if token.group(0) != "}}":
            open_clozes.append(token)
        elif open_clozes:
            open_clozes.pop()
    return open_clozes


def near_misses(text: str) -> list[Finding]:
    """Markers Anki would not read as a cloze, each naming the marker meant (warnings).

    ``{{c1:x}}`` (one colon), ``{c1::x}}`` (one brace), ``{{ c1::x }}`` and
    ``{{c 1::x}}`` (white space inside the marker). A marker with a single
    brace *and* a single colon (``{c1: ...``) is too far from a cloze to
    guess at: it may be a set in TeX.
    """
    found: list[Finding] = []
    if "{" not in text:
        return found  # the common case, cheaply
    for match in _MARKER_LIKE.finditer(text):
        braces, gap1, gap2, number, gap3, colons = match.groups()
        spaced = bool(gap1 or gap2 or gap3)
        if len(braces) == 1 and len(colons) == 1:
            continue
        if len(braces) == 2 and len(colons) == 2 and not spaced:
            continue  # a real opener: its own rules apply
        meant = f"{{{{c{number}::"
        written = match.group(0)
        if len(braces) == 1:
            code, message = ONE_BRACE, ONE_BRACE.message(written=written, meant=meant)
        elif len(colons) == 1:
            code, message = ONE_COLON, ONE_COLON.message(written=written, meant=meant)
        else:
            code, message = SPACED, SPACED.message(written=written, meant=meant)
        found.append(Finding(match.start(), written, message, code, is_warning=True))
    return found


# --- math ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cloze:
    """One ``{{cN::text}}`` or ``{{cN::text::hint}}`` in a formula, by character offsets."""

    number: int
    text: str
    hint: str | None
    start: int
    end: int


class ClozeSyntaxError(ValueError):
    """A cloze marker in TeX that Anki would read differently than the author meant."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def find_in_math(tex: str) -> list[Cloze]:
    """Every cloze in ``tex``, read the way Anki reads it (the first ``}}`` closes it).

    Raises ClozeSyntaxError for the first marker with no number or in upper
    case, an empty cloze, an unclosed one, a nested one, or one whose TeX
    ends in ``}`` right before the closing ``}}`` (Anki would close the cloze
    one brace too early). The messages are those of the same mistakes in text.
    """
    out: list[Cloze] = []
    pos = 0
    while (opener := OPENER.search(tex, pos)) is not None:
        problem = _opener_finding(opener)
        if problem is not None:
            raise ClozeSyntaxError(problem)
        close = tex.find("}}", opener.end())
        if close < 0:
            raise ClozeSyntaxError(_unclosed(opener))
        body = tex[opener.end() : close]
        if OPENER.search(body):
            message = NESTED_IN_MATH.message()
            raise ClozeSyntaxError(
                Finding(opener.start(), opener.group(0), message, NESTED_IN_MATH)
            )
        text, sep, hint = body.partition("::")
        if not text.strip():
            raise ClozeSyntaxError(_empty(opener.start(), tex[opener.start() : close + 2]))
        _check_math_braces(tex, opener, close, text)
        out.append(
            Cloze(int(opener.group(1)), text, hint if sep else None, opener.start(), close + 2)
        )
        pos = close + 2
    return out


def _check_math_braces(tex: str, opener: re.Match[str], close: int, text: str) -> None:
    """Raise when the cloze's TeX holds ``}}`` or ends in ``}`` before its ``}}``.

    As Anki reads it, a cloze ends at the first ``}}``: in ``{{c2::A^T}}}`` the
    cloze is ``A^T`` and the last ``}`` is the formula's own (it may close a
    group opened before the cloze, ``\frac{1}{{{c2::A^T}}}``); whether the
    formula's braces pair up is the formula's brace check, not this one's.
    """
    if _balanced(text):
        return
    number = opener.group(1)
    if _balanced(text + "}"):
        message = BRACES.message(
            detail=f"cloze c{number} ends in '}}' right before its closing '}}}}': "
            f"write a space before the '}}}}', as in {{{{c{number}::\\frac{{a}}{{b}} }}}}"
        )
    else:
        message = BRACES.message(
            detail=f"cloze c{number} holds '}}}}' ({tex[opener.start() : close + 2]!r}): Anki "
            "ends a cloze at the first '}}', so write a space between those braces ('} }')"
        )
    raise ClozeSyntaxError(Finding(opener.start(), opener.group(0), message, BRACES))
