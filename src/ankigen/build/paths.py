"""Paths in messages, written as the user would type them, each on one line."""

from __future__ import annotations

from pathlib import Path

#: Characters of a file name that would break a message's line: shown escaped.
_LINE_BREAKS = str.maketrans({"\n": "\\n", "\r": "\\r"})


def display_path(path: Path) -> str:
    """The path relative to the current folder when inside it, else as given (``shown_path``)."""
    try:
        text = str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError):  # outside the current folder, or a symbolic link loop
        text = str(path)
    return shown_path(text)


def shown_path(path: Path | str) -> str:
    """A path as it may stand in a message line.

    A line break in a file name is shown as ``\\n`` (a name could otherwise
    start a line of its own that fakes a message, or a CI system's command),
    and a path that starts with ``::`` gets ``./`` before it: GitHub reads a
    line that starts with ``::`` as a workflow command (``::add-mask::``).
    The terminal escapes every other control character (``cli.terminal``).
    """
    text = str(path).translate(_LINE_BREAKS)
    return f"./{text}" if text.startswith("::") else text
