"""Markdown below a content folder that the build does not read (format section 13).

A build reads the ``*.md`` files directly in each content folder it is
given. A deck written in a subfolder (``content/bio/b.md``) or under another
suffix (``stats.markdown``) would otherwise be left out without a word.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from ankigen.build.paths import display_path
from ankigen.diagnostics import Code, Diagnostic, warning

UNREAD = Code.UNREAD_FILE
#: Suffixes of files that look like content but are not read under that name.
_MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkd", ".mkdn"})


def unread_files(paths: Sequence[Path], read: Iterable[Path]) -> list[Diagnostic]:
    """A warning for each markdown file below a content folder in ``paths`` that is not read."""
    # Compared as written, not resolved: a symlinked content file is judged by its own name.
    done = {path.absolute() for path in read}
    found: list[Diagnostic] = []
    for folder in paths:
        if not folder.is_dir():
            continue
        for path in _markdown_below(folder):
            if path.absolute() not in done:
                done.add(path.absolute())
                found.append(_unread(path, folder))
    return found


def _markdown_below(folder: Path) -> list[Path]:
    """Markdown-like files in ``folder`` and its subfolders; hidden ones are not looked at."""
    found: list[Path] = []
    for here, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        found.extend(
            Path(here) / name
            for name in sorted(files)
            if not name.startswith(".") and Path(name).suffix.lower() in _MARKDOWN_SUFFIXES
        )
    return found


def _unread(path: Path, folder: Path) -> Diagnostic:
    shown = display_path(path)
    if path.parent == folder:
        fix = f"rename it to '{path.stem}.md' to build it as a deck"
    else:
        fix = (
            f"the build reads only the *.md files directly in '{display_path(folder)}': "
            f"move it there, or also build '{display_path(path.parent)}'"
        )
    return warning(shown, 1, UNREAD.message(fix=fix), column=1, code=UNREAD)
