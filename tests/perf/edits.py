"""Edits an author saves to ``content/deck.md``, for tests that rebuild after each one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: One edit of a project's files.
Edit = Callable[[Path], None]


def replace_in_deck(old: str, new: str) -> Edit:
    """The edit that replaces the first ``old`` of ``content/deck.md`` with ``new``."""

    def edit(project: Path) -> None:
        source = project / "content" / "deck.md"
        text = source.read_text("utf-8")
        assert old in text, old
        source.write_text(text.replace(old, new, 1), "utf-8")

    return edit
