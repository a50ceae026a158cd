"""Paths in messages, written as the user would type them."""

from __future__ import annotations

from pathlib import Path


def display_path(path: Path) -> str:
    """The path relative to the current folder when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError):  # outside the current folder, or a symbolic link loop
        return str(path)
