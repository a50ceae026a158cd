"""Plain text from a field, written as markdown that shows exactly that text.

Text is escaped where markdown (and this format) would read it as syntax:
emphasis, code, links, raw HTML, entities, dollar math, ``==`` marks and
line-start markers. Anki's MathJax delimiters ``\\(…\\)`` and ``\\[…\\]`` (and
its ``[$]…[/$]`` LaTeX) become ``$…$`` and ``$$…$$``; cloze markers are kept as
written. ``[sound:…]`` cannot be carried over: it is dropped and named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ankigen.syntax import cloze

#: A hard line break while a paragraph is assembled (control characters are removed from text).
BREAK = "\x01"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MATH = re.compile(
    r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]"
    r"|\[\$\](?P<inline2>.+?)\[/\$\]|\[\$\$\](?P<display2>.+?)\[/\$\$\]",
    re.DOTALL,
)
_SOUND = re.compile(r"\[sound:[^\]]*\]")
#: Cloze openers, ``::`` (exactly two colons: three or more are text) and ``}}``.
_CLOZE_PARTS = re.compile(cloze.OPENER.pattern + r"|(?<!:)::(?!:)|\}\}", re.IGNORECASE)
#: The first colon of a run of three or more: ``:::`` would be this format's separator.
_SEPARATOR_RUN = re.compile(r"(?<!:):(?=::)")
_SPECIAL = re.compile(r"([\\`*_<>$~&|])")
_ASCII_SPACE = " \t\n\r\f"
_SPACE = re.compile(r"[ \t\n\r\f]+")
_LINE_START = re.compile(r"^(#|>|-|\+|=|\d+[.)])")


@dataclass(frozen=True)
class Text:
    """Escaped markdown, and what of the text could not be carried over."""

    markdown: str
    lost: tuple[str, ...] = ()


def text_to_markdown(text: str) -> Text:
    """One run of field text (tags already read) as escaped markdown, math converted."""
    text = _CONTROL.sub("", text)
    lost = tuple(f"sound '{m.group(0)}'" for m in _SOUND.finditer(text))
    text = _SOUND.sub("", text)
    parts: list[str] = []
    position = 0
    for match in _MATH.finditer(text):
        inline = match.group("inline") or match.group("inline2")
        tex = _math(
            inline if inline is not None else match.group("display") or match.group("display2")
        )
        if not tex or "$" in tex:  # no formula, or one that dollars cannot hold: text
            continue
        parts.append(_escape(text[position : match.start()]))
        parts.append(f"${tex}$" if inline is not None else f"$${tex}$$")
        position = match.end()
    parts.append(_escape(text[position:]))
    return Text("".join(parts), lost)


def _math(tex: str) -> str:
    """TeX as it goes between dollars: on one line (a blank line would end the paragraph)."""
    return " ".join(tex.split())


def _escape(text: str) -> str:
    """Escape markdown syntax in ``text``; cloze markers stay as written."""
    text = collapse_space(text)
    pieces = []
    position = 0
    for match in _CLOZE_PARTS.finditer(text):
        pieces.append(_escape_plain(text[position : match.start()]))
        pieces.append(match.group(0))
        position = match.end()
    pieces.append(_escape_plain(text[position:]))
    return "".join(pieces)


def collapse_space(text: str) -> str:
    """Runs of ASCII white space as one space, as HTML shows them (a no-break space stays)."""
    if not text:
        return ""
    core = " ".join(part for part in _SPACE.split(text) if part)
    if not core:
        return " "
    return (
        (" " if text[0] in _ASCII_SPACE else "") + core + (" " if text[-1] in _ASCII_SPACE else "")
    )


def _escape_plain(text: str) -> str:
    # `[` as an entity: no link can open, and `\[` would read as Anki's MathJax `\[`.
    escaped = _SPECIAL.sub(r"\\\1", text).replace("==", "=\\=").replace("[", "&#91;")
    return _SEPARATOR_RUN.sub(r"\\:", escaped)


def escape_line_start(line: str) -> str:
    """Escape a marker that would make ``line`` a heading, quote, list item or setext line."""
    match = _LINE_START.match(line)
    if match is None:
        return line
    marker = match.group(1)
    if marker[0].isdigit():
        return marker[:-1] + "\\" + marker[-1] + line[len(marker) :]
    return "\\" + line


def apart(blocks: list[str]) -> list[str]:
    """Two lists in a row stay two lists: the second takes the other marker (``*``, ``1)``)."""
    for index in range(1, len(blocks)):
        before, block = blocks[index - 1], blocks[index]
        if block.startswith("- ") and before.startswith("- "):
            blocks[index] = remark(block, "- ", "* ")
        elif block.startswith("1. ") and before.startswith("1. "):
            blocks[index] = remark(block, ". ", ") ")
    return blocks


def remark(listing: str, old: str, new: str) -> str:
    """``listing`` with the marker of each of its own items (not nested ones) changed."""
    lines = listing.split("\n")
    for index, line in enumerate(lines):
        if old == "- " and line.startswith("- "):
            lines[index] = "* " + line[2:]
        elif old == ". " and line[:1].isdigit():
            number, dot, rest = line.partition(". ")
            if dot and number.isdigit():
                lines[index] = number + ") " + rest
    return "\n".join(lines)


def wrap(inner: str, mark: str) -> str:
    """``inner`` between emphasis marks, white space and line breaks kept outside them."""
    core = inner.strip(" " + BREAK)
    if not core:
        return inner
    start = inner.index(core[0])
    end = start + len(core)
    return inner[:start] + mark + core + mark + inner[end:]


def code_span(code: str) -> str:
    code = " ".join(code.split("\n"))
    ticks = "`" * (longest_run(code, "`") + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def longest_run(text: str, char: str) -> int:
    longest = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        longest = max(longest, run)
    return longest


def image_link(alt: str, name: str) -> str:
    """``![alt](name)`` for a media file (``alt`` already markdown), as the build will read it.

    The build percent-decodes a target, so a literal ``%`` is written ``%25``; a
    name with a space or parenthesis goes between angle brackets.
    """
    target = name.replace("%", "%25")
    target = f"<{target}>" if any(c in target for c in " ()") else target
    return f"![{alt}]({target})"
