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
  ``\\(`` exactly as written.
"""

from __future__ import annotations

import html
import re

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
