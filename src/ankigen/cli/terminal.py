"""What ankigen prints: every line goes out through :func:`echo`, control characters made visible.

Content reaches the terminal in messages (a card's text in a diagnostic, a
field of a deck in ``diff``, a file name): a raw escape sequence there could
move the cursor, rewrite earlier lines, retitle the window or hide text, and a
bidirectional control could reorder what is shown. So every C0 control but
newline and tab, DEL, every C1 control, and the bidi and line-separator
characters are shown as escapes (``\\x1b``, ``\\u202e``). JSON output keeps
the same characters as JSON escapes, so it still parses to the same data.
"""

from __future__ import annotations

import json
import re

import click

__all__ = ["echo", "echo_json", "visible"]

#: Characters never written raw: C0 controls but \n and \t, DEL, C1, bidi controls,
#: and the line and paragraph separators.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character shown as an escape (newlines and tabs kept)."""
    return _HIDDEN.sub(_escape, text)


def echo(text: str = "", *, err: bool = False) -> None:
    """Print one message (to stderr with ``err``), control characters made visible."""
    click.echo(visible(text), err=err)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def echo_json(data: object, *, indent: int | None = 2, ensure_ascii: bool = True) -> None:
    """Print ``data`` as JSON (as ``json.dumps`` writes it), hidden characters as ``\\uXXXX``."""
    text = json.dumps(data, indent=indent, ensure_ascii=ensure_ascii)
    # Outside strings JSON has no such character, so each one is inside a string.
    click.echo(_HIDDEN.sub(_json_escape, text))
