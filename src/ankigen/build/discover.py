"""Which content files a build reads: files and folders on the command line, expanded.

A folder contributes the ``*.md`` files directly in it (format section 1); each
file keeps the content root it may reference images in. Two files that would
build the same ``<stem>.apkg`` are a usage error, found before any work starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ankigen.errors import UsageError


@dataclass(frozen=True)
class ContentFile:
    """A content file and the content root it may reference images in."""

    path: Path
    root: Path


def discover(paths: Sequence[Path]) -> list[ContentFile]:
    """Expand files and folders into content files, each with its content root."""
    files: list[ContentFile] = []
    for path in paths:
        if path.is_dir():
            files.extend(ContentFile(p, path) for p in sorted(path.glob("*.md")) if p.is_file())
        elif path.is_file():
            files.append(ContentFile(path, path.parent))
        else:
            raise UsageError(f"no such file or folder: {path}")
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise UsageError(f"no content files (*.md) found in {shown}")
    stems: dict[str, Path] = {}
    for source in files:
        clash = stems.setdefault(source.path.stem, source.path)
        if clash != source.path:
            raise UsageError(
                f"{clash} and {source.path} would both build "
                f"{source.path.stem}.apkg; rename one of them"
            )
    return files
