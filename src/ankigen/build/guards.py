"""Checks across the content files of one build: where each file really is, and whose
deck key is whose.

Content is untrusted. A content file that is a symbolic link to a file outside
its content folder (``content/x.md -> /etc/passwd``) would copy that file onto
cards, so it is refused. Two files with one deck ``key`` would share note GUIDs
and deck ids, and importing one deck would overwrite the other's notes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Code, Diagnostic, error


@dataclass(frozen=True)
class DeckKey:
    """A deck's key and where it comes from (line 0: the file name, no ``key:``)."""

    file: str
    key: str
    line: int


def outside_root(path: Path, root: Path) -> Diagnostic | None:
    """An error when ``path`` resolves (through symbolic links) outside ``root``."""
    if path.resolve().is_relative_to(root.resolve()):
        return None
    return error(
        _as_given(path),
        1,
        Code.FILE_LINK_OUTSIDE.message(folder=display_path(root)),
        column=1,
        code=Code.FILE_LINK_OUTSIDE,
    )


def key_collisions(keys: Iterable[DeckKey]) -> list[Diagnostic]:
    """An error at each of two (or more) files that give their decks the same key."""
    by_key: dict[str, list[DeckKey]] = {}
    for key in keys:
        by_key.setdefault(key.key, []).append(key)
    problems: list[Diagnostic] = []
    for same in by_key.values():
        if len(same) > 1:
            problems.extend(_collision(key, [k for k in same if k is not key]) for key in same)
    return problems


def _collision(key: DeckKey, others: Sequence[DeckKey]) -> Diagnostic:
    where = ", ".join(f"{o.file}:{max(o.line, 1)}" for o in others)
    source = "" if key.line else " (from the file name: there is no 'key:')"
    return error(
        key.file,
        max(key.line, 1),
        Code.DUPLICATE_DECK_KEY.message(key=key.key, source=source, where=where),
        column=1,
        code=Code.DUPLICATE_DECK_KEY,
    )


def _as_given(path: Path) -> str:
    """The link itself, relative to the current folder (``display_path`` would follow it)."""
    try:
        return str(path.absolute().relative_to(Path.cwd().absolute()))
    except ValueError:
        return str(path)
