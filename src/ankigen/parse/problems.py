"""What the walker reports, and the checks on blocks that are not about items.

Each check returns its problems instead of recording them, so the walker's
states stay the only thing that changes while a file is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from ankigen.parse.paragraph import line_of

#: An image whose target markdown-it refused (a URL scheme it does not link).
_URL_IMAGE = re.compile(r"!\[[^\]\n]*\]\(\s*<?([A-Za-z][A-Za-z0-9+.-]*:[^\s>]*)")


@dataclass(frozen=True)
class Problem:
    """Something wrong at a line (and column, 0 when unknown): an error unless ``is_warning``."""

    line: int
    message: str
    column: int = 0
    code: str = ""
    is_warning: bool = False


def url_images(children: Sequence[Token], line: int) -> list[Problem]:
    """Images written with a URL target, which markdown-it leaves as text."""
    # markdown-it makes no image of a javascript:, vbscript:, file: or data:
    # (non-image) target and leaves the text as written: say so instead.
    return [
        Problem(
            int(child.meta.get("line", line)),
            f"image '{_link_target(match.group(1))}' is a URL; put the file next to "
            "the content and use a relative path",
        )
        for child in children
        if child.type == "text"
        for match in _URL_IMAGE.finditer(child.content)
    ]


def stray_dollars(lines: Sequence[str], numbers: Sequence[int]) -> list[Problem]:
    """An unclosed ``$`` or ``$$`` on each of the given lines."""
    problems: list[Problem] = []
    for line in sorted(set(numbers)):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if "$$" in text.replace("\\$", ""):
            message = (
                "unclosed '$$': close the display formula with '$$', "
                "or write '\\$' for a dollar sign"
            )
        else:
            message = "unclosed '$': close the formula with '$', or write '\\$' for a dollar sign"
        problems.append(Problem(line, message))
    return problems


def unclosed_fence(fence: Token, lines: Sequence[str]) -> list[Problem]:
    """A code block whose closing fence is missing (it would swallow the rest of the file)."""
    if fence.map is None:
        return []
    last = lines[fence.map[1] - 1].strip().lstrip(">").strip()
    marker = fence.markup[0]
    closed = (
        fence.map[1] - fence.map[0] >= 2 and last.startswith(fence.markup) and set(last) <= {marker}
    )
    if closed:
        return []
    return [Problem(line_of(fence), f"code block opened with '{fence.markup}' is never closed")]


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
