"""What Anki reads in a field besides HTML, and how to write text it reads nothing in.

Anki does more with a field than show its HTML. ``{{cloze:Text}}`` splits the
raw field at ``{{cN::``, ``::`` and ``}}`` wherever they stand, inside tags
and attribute values too; a ``[sound:…]``, ``[anki:tts …]`` or ``[anki:play…]``
anywhere becomes an audio tag; ``[latex]``, ``[$]`` and ``[$$]`` become LaTeX
images; and the reviewer's MathJax typesets every ``\\(…\\)`` and ``\\[…\\]``
it finds in the text of the page. Content is untrusted, so every piece of
field HTML the build writes goes through this module:

- an attribute value is escaped so none of ``{ } : [ ] \\`` is left raw (an
  HTML character reference such as ``&#58;`` still means ``:`` to the
  browser, but Anki's cloze and command parsers never see one);
- text keeps cloze syntax (the author's clozes are meant) but each bracket
  command is made inert by writing its ``[`` as ``&#91;``;
- a backslash before ``( ) [ ]`` in text is wrapped in its own element:
  MathJax looks for delimiters only within one run of text between two
  elements, so the pair never reaches it, while the learner still reads
  ``\\(`` exactly as written;
- a cloze hint is text like any other: Anki draws it as ``[hint]``, so a hint
  that would become a command inside those brackets is made inert
  (``inert_hints``);
- a finished field is written as Anki stores it, NFC-normalised, with no
  combining mark left where the normalisation would compose it with a tag's
  ``<``, ``=`` or ``>`` (``as_anki_stores``).
"""

from __future__ import annotations

import html
import re
import unicodedata

#: The ``[`` of every bracket command Anki reads in a field (case-insensitive,
#: as Anki's LaTeX pattern is): ``[sound:``, ``[anki:``, ``[latex]``,
#: ``[/latex]``, ``[$]``, ``[$$]``, ``[/$]``, ``[/$$]``.
_COMMAND_BRACKET = re.compile(r"\[(?=sound:|anki:|/?latex\]|/?\$)", re.IGNORECASE)

#: A backslash that MathJax would read, with the next character, as a delimiter.
_MATHJAX_DELIMITER = re.compile(r"\\(?=[()\[\]])")

#: Where a literal backslash stands so that MathJax cannot pair it with the next character.
LITERAL_BACKSLASH = '<span class="ag-tex">\\</span>'

_ATTRIBUTE_EXTRA = str.maketrans(
    {"{": "&#123;", "}": "&#125;", ":": "&#58;", "[": "&#91;", "]": "&#93;", "\\": "&#92;"}
)
_LITERAL_EXTRA = str.maketrans({"{": "&#123;", "}": "&#125;", ":": "&#58;"})


#: A URL scheme as browsers read it, once they drop blanks and control characters.
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_SAFE_SCHEME = re.compile(r"^(https?|mailto):", re.IGNORECASE)


def is_safe_link(href: str) -> bool:
    """True for a link target with no scheme (a relative link) or http, https or mailto."""
    url = re.sub(r"[\x00-\x20]", "", href)
    return not _SCHEME.match(url) or bool(_SAFE_SCHEME.match(url))


def attribute(value: str) -> str:
    """Escape a value for a double-quoted HTML attribute that Anki reads nothing in."""
    return html.escape(value, quote=True).translate(_ATTRIBUTE_EXTRA)


def literal(text: str) -> str:
    """Escape plain text (code, a file name) so it shows as written and holds no cloze syntax."""
    return html.escape(text, quote=False).translate(_LITERAL_EXTRA)


def inert(field_html: str) -> str:
    """Make the bracket commands and MathJax delimiters in the text of field HTML inert.

    Safe on whole fragments because every attribute the build writes went
    through ``attribute``: a raw ``[`` or ``\\`` can only stand in text.
    """
    without_commands = inert_commands(field_html)
    return _MATHJAX_DELIMITER.sub(lambda _: LITERAL_BACKSLASH, without_commands)


def inert_commands(field_html: str) -> str:
    """Make only the bracket commands inert (for TeX that MathJax must still read whole)."""
    return _COMMAND_BRACKET.sub("&#91;", field_html)


def inert_hints(field_html: str) -> str:
    """Make every cloze hint of a finished field inert once Anki wraps it in ``[`` ``]``.

    Anki reads a field's clozes as ``anki_cloze_runs`` does and draws an active
    cloze's hint as ``[hint]``: a hint ``sound:boom.mp3`` (or ``latex]x[/latex``,
    ``anki:tts …]hi[/anki:tts``, ``$]x[/$``) would become a command there. Such a
    hint's first character is written as a character reference (the learner
    reads the same text; Anki's command patterns never match one), and any
    bracket command inside it made inert as in any other text.
    """
    if _MAYBE_COMMAND_HINT.search(field_html) is None:
        return field_html  # no hint here could become a command: the common case
    return "".join(
        _inert_hint(text) if depth else text for text, depth in anki_cloze_runs(field_html)
    )


#: What any hint that Anki's brackets would make a command holds (a superset, one
#: scan): a command's start right after a "::", or a "[" with one after it.
_MAYBE_COMMAND_HINT = re.compile(r"(?:::|\[)(?:sound:|anki:|/?latex|/?\$)", re.IGNORECASE)


def _inert_hint(text: str) -> str:
    """A run of text inside a cloze, with the hint it sets (after its first ``::``) inert."""
    head, separator, hint = text.partition("::")
    if not separator or not _COMMAND_BRACKET.search("[" + hint + "]"):
        return text
    hint = inert_commands(hint)
    if _COMMAND_BRACKET.match("[" + hint + "]"):
        hint = f"&#{ord(hint[0])};{hint[1:]}"
    return head + separator + hint


#: A cloze opener or closer as Anki's parser reads a finished field (strict ``{{cN::``).
_ANKI_MARKER = re.compile(r"\{\{c([0-9]+)::|\}\}")
#: How many clozes Anki keeps open at once; an opener beyond is ignored, its ``}}`` still closes.
ANKI_MAX_NESTING = 10
#: The largest cloze number Anki's parser reads (a larger one is text).
_ANKI_MAX_PARSED = 0xFFFF


def anki_cloze_number(digits: str) -> int | None:
    """The number of an opener's digits as Anki's parser reads it, or None when Anki
    reads the opener as text (past 0xFFFF; never ``int`` on thousands of digits)."""
    significant = digits.lstrip("0")
    if len(significant) > 5:
        return None
    number = int(significant or "0")
    return number if number <= _ANKI_MAX_PARSED else None


def anki_cloze_runs(field_html: str) -> list[tuple[str, int]]:
    """The field cut as Anki's cloze parser cuts it: markers and runs of text, each
    with how many clozes are open around it (0 for text outside clozes and for
    the markers themselves). Joined, the pieces are the field. One linear pass."""
    runs: list[tuple[str, int]] = []
    depth = 0
    position = run_start = 0
    while (marker := _ANKI_MARKER.search(field_html, position)) is not None:
        digits = marker[1]
        if digits is not None and anki_cloze_number(digits) is None:
            position = marker.start() + 1  # text, like any other character
            continue
        runs.append((field_html[run_start : marker.start()], depth))
        runs.append((marker[0], 0))
        if digits is not None:
            depth = min(depth + 1, ANKI_MAX_NESTING)
        elif depth:
            depth -= 1
        position = run_start = marker.end()
    runs.append((field_html[run_start:], depth))
    return runs


#: A tag's ``<``, ``=`` or ``>`` followed by a non-ASCII run: NFC composes U+0338
#: (alone or after other marks, which it reorders) with those three into
#: ``≮ ≠ ≯``, and no other ASCII character composes with anything.
_MARKUP_THEN_MARKS = re.compile(r"(?<=[<=>])[^\x00-\u02ff]+")


def as_anki_stores(field_html: str) -> str:
    """A finished field as Anki stores it on import (NFC), with its markup intact.

    Anki normalises every field to NFC: a combining mark right after a tag's
    ``>`` would compose with it, the tag would no longer close and the text
    after it would become attributes. Each combining mark that follows a
    ``<``, ``=`` or ``>`` is written as a character reference first (the
    browser shows the same mark; NFC never sees one), then the field is
    normalised, so Anki's own normalisation changes nothing. Run it before
    ``inert_hints``, which writes only ASCII and so keeps a field normalised.
    """
    if field_html.isascii():
        return field_html
    guarded = _MARKUP_THEN_MARKS.sub(_marks_as_references, field_html)
    normalised = unicodedata.normalize("NFC", guarded)
    # Content is NFC where it enters, but a character a markdown entity decoded is
    # not: NFC turns U+212A KELVIN SIGN into "K", which could complete a command.
    return guarded if normalised == guarded else inert_commands(normalised)


#: Characters that may not be starters to Anki's (possibly newer) Unicode tables:
#: marks, and code points this Python's tables do not know yet.
_MAYBE_MARKS = frozenset({"Mn", "Mc", "Me", "Cn"})


def _marks_as_references(run: re.Match[str]) -> str:
    text = run.group(0)
    marks = 0
    while marks < len(text) and (
        unicodedata.combining(text[marks]) or unicodedata.category(text[marks]) in _MAYBE_MARKS
    ):
        marks += 1
    return "".join(f"&#{ord(mark)};" for mark in text[:marks]) + text[marks:]


def split_cloze_separators(text_html: str) -> str:
    """Hide ``::`` runs from Anki's cloze parser, for text where no hint can start."""
    return text_html.replace("::", ":&#58;")


#: What Anki's cloze parser reads in raw field text: an opener, a closer, a separator.
_CLOZE_TOKEN = re.compile(r"\{\{c\d+::|\}\}|::")


class ClozeScan:
    """Follows Anki's reading of a cloze field's text, left to right, across tokens.

    Each open cloze remembers the markup depth it was opened at (how many
    inline elements enclose its opener). A ``::`` is a hint separator only at
    that depth; deeper, inside a link's text or an emphasis the cloze opened,
    it would cut the element in two, so it is escaped and shown as ``::``.
    """

    def __init__(self) -> None:
        self._open: list[int] = []

    def open(self, depth: int) -> None:
        """A cloze opens (an ``==mark==``) with its text at ``depth``."""
        self._open.append(depth)

    def close(self) -> None:
        """The innermost open cloze closes."""
        if self._open:
            self._open.pop()

    def text(self, escaped: str, depth: int) -> str:
        """Escaped text at ``depth``, with every ``::`` that must not split a cloze hidden."""
        return _CLOZE_TOKEN.sub(lambda match: self._token(match.group(0), depth), escaped)

    def _token(self, token: str, depth: int) -> str:
        if token == "::":
            if not self._open or self._open[-1] == depth:
                return token  # plain text outside clozes, or the cloze's own hint separator
            return split_cloze_separators(token)
        if token == "}}":
            self.close()
        else:
            self.open(depth)
        return token
