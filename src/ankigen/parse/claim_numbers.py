"""Numbers as a learner reads them (format sections 12 and 18): digits in any form, and words.

One reader for both sides of a quote: ``find_numbers`` finds the numbers of a
piece of card text, ``read_number`` says what one written number is worth.
A number is digits in any Unicode script (``128``, full width digits),
with thousands separators, a decimal part, an exponent (``1e-3``), a
superscript power (``10²`` is 100), a denominator (``1/2``), a vulgar fraction
(``½``), a ``%`` (``50 %`` too) or times sign (U+00D7, or ``3.3x``); or words
(``four``, ``half``, ``a third``, ``twice``). The word after a number is kept
as its candidate unit (``500 ms``, ``120 per minute``); whether it is a unit,
and what the number is then worth in SI units, the checker decides with a
units library (``ankigen.check._units``), so parsing never loads one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

__all__ = ["MAX_EXPONENT", "TIMES", "Found", "Written", "find_numbers", "read_number"]

#: Largest decimal exponent a quoted number may carry (``1e1000``).
MAX_EXPONENT = 1000
TIMES = "\u00d7"  # the multiplication sign, as authors type it after a factor

_VULGAR = {
    "½": Fraction(1, 2),
    "⅓": Fraction(1, 3),
    "⅔": Fraction(2, 3),
    "¼": Fraction(1, 4),
    "¾": Fraction(3, 4),
    "⅕": Fraction(1, 5),
    "⅖": Fraction(2, 5),
    "⅗": Fraction(3, 5),
    "⅘": Fraction(4, 5),
    "⅙": Fraction(1, 6),
    "⅚": Fraction(5, 6),
    "⅛": Fraction(1, 8),
    "⅜": Fraction(3, 8),
    "⅝": Fraction(5, 8),
    "⅞": Fraction(7, 8),
}
#: Other characters that are a number on their own: the vulgar fractions Unicode has
#: besides (``⅐``, ``⅑``, ``⅒``), Roman numerals (``Ⅳ``), circled and parenthesised
#: numbers (``④``, ``⑽``), each worth what Unicode says it is.
_NUMBER_CHARACTERS = "".join(
    chr(code)
    for first, last in ((0x2150, 0x2152), (0x2160, 0x217F), (0x2460, 0x249B), (0x24EA, 0x24FF))
    for code in range(first, last + 1)
    if unicodedata.numeric(chr(code), None) is not None
)
_VULGAR.update(
    {c: Fraction(unicodedata.numeric(c)).limit_denominator(1000) for c in _NUMBER_CHARACTERS}
)
_VULGAR_CLASS = "".join(_VULGAR)
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER_VALUE = {c: str(i) for i, c in enumerate(_SUPERSCRIPTS)}

_CARDINALS = {
    word: n
    for n, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_CARDINALS.update(
    {
        w: 10 * n
        for n, w in enumerate(
            ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2
        )
    }
)
_CARDINALS.update(
    {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9, "dozen": 12}
)
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4}
_PARTS.update(
    {
        word + ending: n
        for n, word in enumerate(["fifth", "sixth", "seventh", "eighth", "ninth", "tenth"], 5)
        for ending in ("", "s")
    }
)
#: Factors in words. ``double`` and ``triple`` are verbs and names too (``double k``,
#: ``double precision``): not numbers to the reader.
_MULTIPLES = {"twice": 2, "thrice": 3}
_MULTIPLES.update(
    {
        word + "fold": n
        for word, n in (("two", 2), ("three", 3), ("four", 4), ("five", 5), ("ten", 10))
    }
)
_MULTIPLES.update({"hundredfold": 100, "thousandfold": 1000})
_COUNTS = "a|an|one|two|three"
#: The letters a number word starts with: the pattern tries its many alternatives only
#: where one of them stands (a lookahead that changes no match, and halves the scan).
_WORD_STARTS = "".join(
    sorted({word[0] for word in (*_COUNTS.split("|"), "half", *_MULTIPLES, *_CARDINALS)})
)
_WORD = re.compile(
    rf"\b(?=[{_WORD_STARTS}])"
    rf"(?:(?P<count>{_COUNTS})[ \t\n-]+(?P<part>{'|'.join(_PARTS)})"
    rf"|(?P<half>half)|(?P<mult>{'|'.join(_MULTIPLES)})|(?P<card>{'|'.join(_CARDINALS)}))\b",
    re.IGNORECASE,
)

_DIGIT = r"\d"  # any Unicode decimal digit (str patterns match every script)
_BODY = (
    rf"(?:{_DIGIT}{{1,3}}(?:,{_DIGIT}{{3}})+(?!{_DIGIT})|{_DIGIT}+)"
    rf"(?:\.{_DIGIT}+)?(?:[eE][-+]?{_DIGIT}+)?"
)
#: A thousands ``k`` glued to a number (``128k`` tokens, ``4k`` GPUs) is part of it: worth
#: a thousand times the digits, so ``128`` can no longer be quoted for ``128k``. (``K``,
#: ``M`` and ``B`` are left alone: kelvin, molar and bytes glued to a number look alike.)
_THOUSANDS = "k"
#: What may follow a number and is part of it: a percent sign or the word ``percent``, a
#: times sign (after a space too: ``3.3 \u00d7``) or an ``x``/``X`` glued to it (``4x``, ``4X``),
#: a thousands ``k``. A rewrite between these spellings is the same claim.
_SUFFIX = (
    rf"(?:[ \u00a0]?%|[ \u00a0]percent\b|[ \u00a0]?{TIMES}|[xX](?![A-Za-z0-9])"
    rf"|{_THOUSANDS}(?![A-Za-z0-9]))"
)
#: A minus sign written right before a number (hyphen-minus or U+2212): part of it, so
#: that ``-128`` is not the claim ``128`` (``3-4``, ``batch-32`` and ``1e-3`` hold none).
_MINUS = "-\u2212"
_SIGN = rf"(?:[{_MINUS}](?=[\d{_VULGAR_CLASS}]))?"
_NUMBER = (
    rf"{_SIGN}(?:{_BODY}(?:[⁻]?[{_SUPERSCRIPTS}]+)?(?:/{_DIGIT}+)?{_SUFFIX}?|[{_VULGAR_CLASS}])"
)
#: A unit candidate: the next word (letters, µ, °, Ω; a ``/`` or ``per`` joins two).
_UNIT = r"(?:per[ \t]+[^\W\d_]+|[^\W\d_][^\W\d_]*(?:/[^\W\d_]+)?)"
_QUOTED = re.compile(rf"(?P<number>{_NUMBER})(?:[ \u00a0]?(?P<unit>{_UNIT}))?")
#: A number standing on its own: nothing glued to its front but a space or sign; a
#: dotted run (``127.0.0.1``) is an address; ``x1`` is a name (``M/M/1``: _NAMED).
_STANDALONE = re.compile(
    rf"(?<![\w.])"
    rf"(?P<number>{_SIGN}{_BODY}(?!\.?{_DIGIT})(?:[⁻]?[{_SUPERSCRIPTS}]+)?(?:/{_DIGIT}+)?{_SUFFIX}?"
    rf"|{_SIGN}[{_VULGAR_CLASS}](?!{_DIGIT}))"
    # The unit candidate after a space, or glued (``1.5kg``, ``10Gb``): a unit the checker
    # reads either way, so ``1.5kg`` is not the claim ``1.5`` alone.
    rf"(?:[ \u00a0]?(?P<unit>{_UNIT}))?"
)


@dataclass(frozen=True, slots=True)
class Written:
    """A written number: its value, ``%`` or times sign (``kind``), and candidate unit."""

    value: Fraction
    kind: str
    unit: str


@dataclass(frozen=True, slots=True)
class Found:
    """A number found in text: where it starts, how it is written, its candidate unit.

    ``word`` marks a number in words; ``glued`` one after a word and a hyphen
    (``batch-32``), which the version 2 rule does not count.
    """

    start: int
    text: str
    unit: str
    word: bool
    glued: bool


def _ascii_digits(text: str) -> str:
    """Digits of any script as ASCII; superscripts and vulgar fractions left alone."""
    return "".join(
        str(unicodedata.decimal(c)) if c.isdecimal() and not "0" <= c <= "9" else c for c in text
    )


@lru_cache(maxsize=4096)
def read_number(text: str) -> Written | None:
    """What one written number is worth: ``50%`` is 1/2, ``10²`` 100, ``a third`` 1/3.

    The text may end with a unit word (``500 ms``), returned as written.
    None when ``text`` is not one number.

    Kept for the last few thousand texts (the value depends on the text alone and
    cannot change): the checker asks for the same few numbers many times, once for
    every claim of an item and again for each quote of one.
    """
    text = " ".join(text.split())
    word = _WORD.fullmatch(text)
    if word is not None:
        return Written(_word_value(word), TIMES if word.group("mult") else "", "")
    if _folded(text) == "one":
        return Written(Fraction(1), "", "")
    match = _QUOTED.fullmatch(text)
    if match is None:
        return None
    value, kind = _digits_value(match.group("number"))
    if value is None:
        return None
    return Written(value, kind, match.group("unit") or "")


#: The four letters outside ASCII that ``re.IGNORECASE`` matches to ASCII ones (Python's
#: ``re`` documentation): six with a long s is a number word to the pattern, and to a
#: learner.
_AS_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


def _folded(word: str) -> str:
    """A word as the number-word tables spell it (lower case, ASCII letters)."""
    return word.translate(_AS_ASCII).lower()


def _word_value(match: re.Match[str]) -> Fraction:
    if match.group("half"):
        return Fraction(1, 2)
    if match.group("mult"):
        return Fraction(_MULTIPLES[_folded(match.group("mult"))])
    if match.group("card"):
        return Fraction(_CARDINALS[_folded(match.group("card"))])
    count = _folded(match.group("count"))
    numerator = 1 if count in ("a", "an", "one") else _CARDINALS[count]
    return Fraction(numerator, _PARTS[_folded(match.group("part"))])


def _digits_value(number: str) -> tuple[Fraction | None, str]:
    """The value and kind of a number in digits (no unit)."""
    if number.startswith(tuple(_MINUS)):
        value, kind = _digits_value(number[1:])
        return (-value if value is not None else None), kind
    if number in _VULGAR:
        return _VULGAR[number], ""
    number = _ascii_digits(number.replace("\u00a0", " "))
    kind = ""
    if number.endswith("percent"):
        number = number.removesuffix("percent").rstrip() + "%"
    if number.endswith("%"):
        kind, number = "%", number[:-1].rstrip()
    elif number.endswith((TIMES, "x", "X")):
        kind, number = TIMES, number[:-1].rstrip()
    thousands = number.endswith(_THOUSANDS)
    number = number.removesuffix(_THOUSANDS)
    number, _, denominator = number.partition("/")
    power = ""
    if number and number[-1] in _SUPER_VALUE:
        cut = len(number.rstrip(_SUPERSCRIPTS + "⁻"))
        number, power = number[:cut], number[cut:]
    body = number.replace(",", "")
    exponent = re.search(r"[eE]([-+]?\d+)", body)
    if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
        return None, kind
    value = Fraction(body)
    if power:
        exp = int(
            ("-" if power.startswith("⁻") else "")
            + "".join(_SUPER_VALUE[c] for c in power.lstrip("⁻"))
        )
        if abs(exp) > MAX_EXPONENT or (value == 0 and exp < 0):
            return None, kind
        value = value**exp
    if denominator:
        if int(denominator) == 0:
            return None, kind
        value /= int(denominator)
    if thousands:
        value *= 1000
    if kind == "%":
        value /= 100
    return value, kind


#: Where a number in digits can start: every match of _STANDALONE begins so.
_NUMBER_START = re.compile(rf"[\d{_VULGAR_CLASS}]")


def find_numbers(text: str, *, words: bool, full_scan: bool = False) -> Iterator[Found]:
    """Every number of ``text`` in reading order (with ``words``, numbers in words too).

    The scan for digits starts at the first digit (the lookbehinds still see
    what precedes it); ``full_scan`` scans from the start, the slow path the
    tests compare it with.
    """
    first = _NUMBER_START.search(text)
    start = 0 if full_scan or first is None else first.start()
    if start and text[start - 1] in _MINUS:
        start -= 1  # the first number's sign
    scanned = _STANDALONE.finditer(text, start) if first is not None or full_scan else ()
    found = [
        Found(
            m.start("number"),
            m.group("number"),
            m.group("unit") or "",
            False,
            _glued(text, m),
        )
        for m in scanned
        if not _after_name(text, m.start())
    ]
    if words and (full_scan or _may_hold_words(text)):
        found += [Found(m.start(), m.group(), "", True, False) for m in _WORD.finditer(text)]
        found.sort(key=lambda f: f.start)
    return iter(found)


#: Every word that can start or make a number in words, for the pre-filter.
_NUMBER_WORDS = frozenset([*_CARDINALS, *_PARTS, *_MULTIPLES])
#: Runs of ASCII letters: every number word, whatever stands around it (a times sign or
#: any other non-ASCII character too), so the pre-filter never misses one.
_ASCII_WORDS = re.compile(r"[a-z]+")


def _may_hold_words(text: str) -> bool:
    """False when no word of ``text`` is a number word (most texts): no regex scan.

    A set test on the lower-cased words is several times faster than the
    word pattern's scan, which ``full_scan`` runs on every text to compare.
    """
    return not _NUMBER_WORDS.isdisjoint(_ASCII_WORDS.findall(_folded(text)))


#: The end of a slash-separated name before a number: ``M/M/`` of ``M/M/1``
#: (Kendall's notation for a queue). ``k/2`` keeps its number.
_NAMED = re.compile(r"[^\W\d_]+/[^\W\d_]+/\Z")


def _after_name(text: str, start: int) -> bool:
    """True for a number at ``start`` that ends a slash-separated name (``M/M/1``).

    ``_NAMED`` ends with the slash, so only a number right after one is searched for
    it (the search reads the text before the number: slow, and most numbers follow none).
    """
    return start > 0 and text[start - 1] == "/" and _NAMED.search(text, 0, start) is not None


def _glued(text: str, match: re.Match[str]) -> bool:
    """True for a number after a word and a hyphen (``batch-32``, ``GPT-3``)."""
    start = match.start()
    return start >= 2 and text[start - 1] == "-" and text[start - 2].isalpha()
