"""The image file an author probably meant, for the message about one that is missing."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

#: At most this many files are compared: a content folder is small, a mistake cheap.
_MAX_FILES = 5000


def nearest_image(relative: str, content_dir: Path, root: Path, extensions: set[str]) -> str | None:
    """The existing image path (relative to ``content_dir``) closest to ``relative``, or None.

    Images are looked for under the content root ``root`` (hidden folders
    left out). A file with the same name in another folder wins; otherwise
    the file whose name is closest by ``difflib``, when close enough to be a typo.
    """
    candidates = _images(content_dir, root, extensions)
    wanted = relative.replace("\\", "/").removeprefix("./")
    name = wanted.rsplit("/", 1)[-1]
    same_name = sorted(c for c in candidates if c.rsplit("/", 1)[-1] == name)
    if same_name:
        return same_name[0]
    # Compared by file name: the folder and the extension they share would make
    # any two paths look alike.
    by_name = {c.rsplit("/", 1)[-1]: c for c in reversed(candidates)}
    close = difflib.get_close_matches(name, sorted(by_name), n=1, cutoff=0.6)
    return by_name[close[0]] if close else None


def _images(content_dir: Path, root: Path, extensions: set[str]) -> list[str]:
    """Every image file under ``root``, as a path relative to ``content_dir``, in sorted order."""
    found: list[str] = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        for file in sorted(files):
            if Path(file).suffix.lower() in extensions and not file.startswith("."):
                found.append(Path(os.path.relpath(Path(folder, file), content_dir)).as_posix())
                if len(found) >= _MAX_FILES:
                    return found
    return found
