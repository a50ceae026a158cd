"""Another tool's markdown as this format reads it, the author's words unchanged.

Only syntax changes: Anki's MathJax delimiters ``\\(…\\)`` and ``\\[…\\]``
become ``$…$`` and ``$$…$$``; a literal ``$`` (in a tool without dollar math)
``==`` (this format's cloze shorthand) and ``:::`` (its separator) are escaped; inside an answer,
headings become ``###`` to ``######`` (format section 15 keeps those in an
answer; a ``#`` or ``##`` would end the item), their levels kept relative to
the answer's top heading, and a thematic break (which would end the item) is
dropped; both are reported. A question is one
paragraph, so a question of several blocks is written as lines of one.
Code spans and fenced code are never touched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ankigen.importers.kept_html import sub_heading
from ankigen.importers.markdown_text import escape_line_start
from ankigen.parse.markdown import content_parser

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_INLINE = re.compile(
    r"(?P<code>(?P<ticks>`+).*?(?<!`)(?P=ticks)(?!`))"
    r"|\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]"
    r"|(?P<dollars>\$\$)(?P<tex>.+?)\$\$|\$(?P<inline_tex>(?!\s)[^$]+?(?<!\s))\$(?!\d)"
    r"|(?P<escape>\\.)|(?P<dollar>\$)|(?P<mark>==)|(?P<separator>:{3,})",
    re.DOTALL,
)
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE_INFO = re.compile(r"^( {0,3}(?:`{3,}|~{3,}))(.*)$")
#: ``> [!note]`` and the other callout kinds this format reads (its ``[`` written ``&#91;``:
#: a backslash would read as MathJax's ``\\[``).
_CALLOUT = re.compile(r"^( {0,3}(?:>[ \t]?)+)\[!(?:recall|formula|note)\]", re.IGNORECASE)
#: A line starting with a tag or a table row: an HTML block or table of its own.
_LINE_HTML = re.compile(r"^[<|]")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


@dataclass(frozen=True)
class Adapted:
    """Markdown for a content file, and what had to change beyond syntax (for a warning)."""

    markdown: str
    changed: tuple[str, ...] = ()


def adapt(text: str, *, dollar_math: bool, answer: bool = False) -> Adapted:
    """``text`` written for this format; ``dollar_math``: the tool reads ``$…$`` as math."""
    changed: list[str] = []
    out: list[str] = []
    chunks = _chunks(text.strip("\n"))
    top = min((_top_heading(chunk) for chunk, is_code in chunks if not is_code), default=7)
    for chunk, is_code in chunks:
        if is_code:
            out.append(_code_fence(chunk, changed) if answer else chunk)
            continue
        chunk = _blocks(chunk, changed, top) if answer else chunk
        out.append(_INLINE.sub(lambda m: _inline(m, dollar_math), chunk))
    return Adapted("\n".join(out).strip("\n"), tuple(changed))


def one_paragraph(markdown: str) -> Adapted:
    """A question as one paragraph: if it is several blocks (or a list, HTML...), as lines."""
    text = markdown.strip()
    if _is_one_paragraph(text):
        return Adapted(text)
    lines = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and not _FENCE.match(stripped):
            lines.append(_LINE_HTML.sub(r"\\\g<0>", escape_line_start(stripped)))
    return Adapted("\\\n".join(lines), ("a question that is not one paragraph, written as one",))


def _is_one_paragraph(text: str) -> bool:
    """True when ``text`` reads as exactly one paragraph (as this format's parser reads it)."""
    blocks = [t for t in content_parser().parse(text) if t.level == 0 and t.nesting != -1]
    # A lone display formula is a block too; the writer keeps it a question (``$$x$$ :::``).
    return [t.type for t in blocks] in (["paragraph_open"], ["math_block"])


def _chunks(text: str) -> list[tuple[str, bool]]:
    """Text cut into fenced code blocks (True) and the rest (False), lines kept whole."""
    chunks: list[tuple[str, bool]] = []
    current: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if fence is None and match:
            chunks.append(("\n".join(current), False))
            current, fence = [line], match.group(1)[0] * len(match.group(1))
        elif fence is not None and _closes(line, fence):
            current.append(line)
            chunks.append(("\n".join(current), True))
            current, fence = [], None
        else:
            current.append(line)
    chunks.append(("\n".join(current), fence is not None))
    return [(chunk, is_code) for chunk, is_code in chunks if chunk or is_code]


def _closes(line: str, fence: str) -> bool:
    """True when ``line`` closes a fence opened with ``fence``."""
    return line.strip().startswith(fence) and not line.strip().strip(fence[0])


def _inline(match: re.Match[str], dollar_math: bool) -> str:
    if match.group("code") or match.group("escape"):
        return match.group(0)
    if match.group("inline") is not None:
        return f"${match.group('inline').strip()}$"
    if match.group("display") is not None:
        return f"$${match.group('display').strip()}$$"
    tex = match.group("tex") if match.group("dollars") else match.group("inline_tex")
    if tex is not None:
        if dollar_math:  # math as the tool reads it (no space inside, no digit after): kept
            return match.group(0)
        mark = "\\$" * (2 if match.group("dollars") else 1)
        return mark + _INLINE.sub(lambda m: _inline(m, dollar_math), tex) + mark
    if match.group("dollar"):
        return "\\$"
    if match.group("separator"):  # a tool's text, never this format's separator
        return "\\" + match.group(0)
    return "=\\="


def _top_heading(text: str) -> int:
    """The smallest heading level written in ``text`` (7 when it has none)."""
    levels = [7]
    previous = ""
    for line in text.split("\n"):
        heading = _ATX.match(line)
        if heading:
            levels.append(len(heading.group(1)))
        elif _SETEXT.match(line) and previous.strip() and not _BREAK.match(previous):
            levels.append(1 if line.strip()[0] == "=" else 2)
        previous = line
    return min(levels)


def _blocks(text: str, changed: list[str], top: int) -> str:
    """Headings made sub-headings (``###``, levels kept apart), callouts plain quotes and
    rules dropped: each would end the item."""
    lines = text.split("\n")
    out: list[str] = []
    for line in lines:
        previous = out[-1] if out else ""
        if _SETEXT.match(line) and previous.strip() and not _BREAK.match(previous):
            level = 1 if line.strip()[0] == "=" else 2
            out[-1] = _sub_heading(previous.strip(), level, top, changed)
            continue
        if _BREAK.match(line):
            changed.append("a thematic break (---) inside an answer")
            out.append("")
            continue
        heading = _ATX.match(line)
        if heading:
            level = len(heading.group(1))
            line = _sub_heading(heading.group("text"), level, top, changed, line)
        callout = _CALLOUT.match(line)
        if callout:  # this format's callout would end the item: a plain quote
            line = line[: callout.end(1)] + "&#91;" + line[callout.end(1) + 1 :]
            changed.append("a callout inside an answer, written as a plain quote")
        out.append(line)
    return "\n".join(out)


def _code_fence(chunk: str, changed: list[str]) -> str:
    """A fenced block whose info string is ``check`` or ``formulas`` (this format's) as text."""
    first, _, rest = chunk.partition("\n")
    match = _FENCE_INFO.match(first)
    if match is None or match.group(2).strip().split(" ")[0].lower() not in ("check", "formulas"):
        return chunk
    changed.append(f"the fence info '{match.group(2).strip()}' (this format's own), written 'text'")
    return f"{match.group(1)}text\n{rest}"


def _sub_heading(text: str, level: int, top: int, changed: list[str], line: str = "") -> str:
    """A heading at ``level`` written as an answer's sub-heading (format 15: ``###`` down).

    ``line`` is the heading as written, kept when its level is already that of a sub-heading.
    """
    if not text.strip():
        return ""
    written = sub_heading(text.strip(), level, top)
    marks = written.split(" ", 1)[0]
    if line and len(marks) == level:
        return line
    changed.append(f"the level of a heading inside an answer ({'#' * level} written as {marks})")
    return written
