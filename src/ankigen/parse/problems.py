"""The checks on blocks that are not about items: URL images, stray ``$``, open fences.

Each check reports into the sink it is given and changes nothing else, so
the walker's states stay the only thing that changes while a file is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

from ankigen.diagnostics import Code, Sink
from ankigen.parse import token_meta
from ankigen.parse.paragraph import line_of

#: An image whose target markdown-it refused (a URL scheme it does not link).
_URL_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*<?([A-Za-z][A-Za-z0-9+.-]*:[^\s>]*)")


def url_images(children: Sequence[Token], line: int, lines: Sequence[str], sink: Sink) -> None:
    """Images written with a URL target, which markdown-it leaves as text."""
    # markdown-it makes no image of a javascript:, vbscript:, file: or data:
    # (non-image) target and leaves the text as written: say so instead.
    for child in children:
        if child.type != "text":
            continue
        for match in _URL_IMAGE.finditer(child.content):
            at = token_meta.line_or(child, line)
            source = lines[at - 1] if 0 < at <= len(lines) else ""
            column = source.find(match.group(0)) + 1
            if not column:
                # Not written so: an escape or an entity (`!&#91;x](…)`, as `ankigen
                # import` writes such text) made the shape, and it is text on purpose.
                continue
            sink.error(
                at,
                Code.IMAGE_URL_TARGET.message(target=_link_target(match.group(1))),
                column=column,
                code=Code.IMAGE_URL_TARGET,
            )


#: An image or link markdown-it left as text for a space in its path (``![a](my file.png)``).
_SPACED_PATH = re.compile(r"(!?)\[([^\]\n]*)\]\(([^()<>\n]*?[ \t][^()<>\n]*?)\)")
#: An Obsidian embed, ``![[file.png]]`` (``|`` and ``#`` start its size or a heading).
_EMBED = re.compile(r"!\[\[([^\]|#\n]+)(?:[|#][^\]\n]*)?\]\]")
#: A footnote reference ``[^1]``, or its definition ``[^1]:`` at a line's start.
_FOOTNOTE = re.compile(r"\[\^[^\]\s]+\](?::(?=\s|$))?")


def shown_as_written(
    children: Sequence[Token], line: int, lines: Sequence[str], sink: Sink
) -> None:
    """Markdown of other tools a card shows as written: an image or link whose path holds
    a space (AG153), an Obsidian embed (AG154), a footnote (AG155)."""
    for child in children:
        text = child.content if child.type == "text" else ""
        if "[" not in text:
            continue  # the common case: none of them without a bracket
        at = token_meta.line_or(child, line)
        source = lines[at - 1] if 0 < at <= len(lines) else ""
        for match in _EMBED.finditer(text):
            path = match.group(1).strip()
            spaced = " " in path
            meant = f"![](<{path}>)" if spaced else f"![]({path})"
            brackets = ", in angle brackets for its spaces" if spaced else ""
            message = Code.OBSIDIAN_EMBED.message(
                written=match.group(0), meant=meant, brackets=brackets
            )
            _warn(source, match.group(0), at, message, Code.OBSIDIAN_EMBED, sink)
        for match in _SPACED_PATH.finditer(text):
            bang, label, path = match.groups()
            what = "an image path" if bang else "a link address"
            meant = f"{bang}[{label}](<{path.strip()}>)"
            message = Code.SPACE_IN_LINK_PATH.message(what=what, meant=meant)
            _warn(source, match.group(0), at, message, Code.SPACE_IN_LINK_PATH, sink)
        for match in _FOOTNOTE.finditer(text):
            message = Code.FOOTNOTE.message(written=match.group(0))
            _warn(source, match.group(0), at, message, Code.FOOTNOTE, sink)


def _warn(source: str, written: str, line: int, message: str, code: Code, sink: Sink) -> None:
    """A warning at ``written`` in its source line; none when the source escapes it
    (``\\[^1]``: written to be shown as it is)."""
    column = source.find(written)
    if column > 0 and source[column - 1] == "\\":
        return
    sink.warning(line, message, column=column + 1, code=code)


#: A ``$$`` or a ``$`` not escaped by a backslash (``\\$`` is a line break, then a sign).
_DOLLAR_SIGNS = re.compile(r"(?<!\\)(?:\\\\)*(\$\$?)")


def stray_dollars(lines: Sequence[str], numbers: Sequence[int], sink: Sink) -> None:
    """An unclosed ``$`` or ``$$`` on each of the given lines."""
    for line in sorted(set(numbers)):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if "$$" in text.replace("\\$", ""):
            sink.error(
                line,
                Code.UNCLOSED_DOUBLE_DOLLAR.message(),
                column=_unclosed_dollar_column(text, "$$"),
                code=Code.UNCLOSED_DOUBLE_DOLLAR,
            )
        else:
            sink.error(
                line,
                Code.UNCLOSED_DOLLAR.message(),
                column=_unclosed_dollar_column(text, "$"),
                code=Code.UNCLOSED_DOLLAR,
            )


def _unclosed_dollar_column(text: str, sign: str) -> int:
    """The 1-based column of the ``$`` (or ``$$``) left open on a line holding a stray one.

    The signs not escaped (``\\$``) are paired from the left, as math is read:
    an odd one out is the last; when they pair up (``$5 and $5``: neither opened
    math) the first is the one to fix. 1 when none is found.
    """
    signs = [m.start(1) for m in _DOLLAR_SIGNS.finditer(text) if m.group(1) == sign]
    if not signs:
        return 1
    return (signs[-1] if len(signs) % 2 else signs[0]) + 1


def unclosed_fence(
    fence: Token, lines: Sequence[str], sink: Sink, *, meant_to_close: int | None = None
) -> None:
    """A code block whose closing fence is missing (it would swallow the rest of the file).

    ``meant_to_close``: the line of a fence written after ``:::`` (AG147), which
    opens no block, when this fence was written to close it: then the fix is there.
    """
    if fence.map is None:
        return
    last = lines[fence.map[1] - 1].strip().lstrip(">").strip()
    marker = fence.markup[0]
    closed = (
        fence.map[1] - fence.map[0] >= 2 and last.startswith(fence.markup) and set(last) <= {marker}
    )
    if not closed:
        if meant_to_close is None:
            fix = f"close it with a line of '{fence.markup}' after the code"
        else:
            fix = _meant_closer(meant_to_close)
        message = Code.UNCLOSED_FENCE.message(fence=fence.markup, fix=fix)
        sink.error(
            line_of(fence), message, column=fence_column(fence, lines), code=Code.UNCLOSED_FENCE
        )
    closer_with_text(fence, lines, sink, meant_to_close=meant_to_close)


def _meant_closer(glued: int, opened: int | None = None) -> str:
    """The fix of a block opened by a fence (at ``opened``, else the line reported) that
    was written to close the one after ``:::`` at line ``glued``."""
    which = "this fence" if opened is None else f"the fence at line {opened}"
    return (
        f"{which} was meant to close the one after ':::' at line {glued} (which opens no "
        "block): put that one on a line of its own"
    )


def closer_with_text(
    fence: Token, lines: Sequence[str], sink: Sink, *, meant_to_close: int | None = None
) -> None:
    """AG143: a line of the block that starts with its fence but has text after it.

    Such a line (```` ``` <!-- id: x --> ````) does not close the block: it runs
    on over the items below it to the next bare fence, and they make no card.
    """
    if fence.map is None or fence.markup not in fence.content:
        return  # the common case: no line of the block starts with the fence
    opened, end = fence.map[0] + 1, fence.map[1]
    for number in range(opened + 1, end):
        text = lines[number - 1] if number <= len(lines) else ""
        stripped = text.lstrip(" ")
        if len(text) - len(stripped) > 3 or not stripped.startswith(fence.markup):
            continue
        rest = stripped.lstrip(fence.markup[0])
        if rest.strip():
            if meant_to_close is None:
                longer = fence.markup[0] * (len(stripped) - len(rest) + 1)
                fix = (
                    "put the text on a line of its own (or, if it is code, open the block "
                    f"with '{longer}')"
                )
            else:
                fix = _meant_closer(meant_to_close, opened)
            message = Code.FENCE_CLOSER_WITH_TEXT.message(
                written=text.strip(), opened=opened, fence=fence.markup, closed=end, fix=fix
            )
            column = len(text) - len(stripped) + 1
            sink.warning(number, message, column=column, code=Code.FENCE_CLOSER_WITH_TEXT)
            return  # the first one: the block's later lines follow from it


def fence_column(fence: Token, lines: Sequence[str]) -> int:
    """The 1-based column of a fence's opening marker (0 when markdown-it gave it no place)."""
    line = line_of(fence)
    if not 0 < line <= len(lines):
        return 0
    return lines[line - 1].find(fence.markup) + 1


def _link_target(text: str) -> str:
    """The target of ``![alt](target)`` as written: up to its unmatched ``)``."""
    depth = 0
    for index, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return text[:index]
    return text
