"""The media files of an ``.apkg``, read with limits (the package may come from anyone).

An ``.apkg`` is a zip: the collection, a ``media`` file mapping each entry's
number to its file name, and the entries. Before anything is read, the
archive's declared sizes are checked: no entry over ``MAX_ENTRY`` bytes, no
more than ``MAX_TOTAL`` in all, and no entry that expands more than
``MAX_RATIO`` times its compressed size (a zip bomb). zipfile never
inflates past an entry's declared size, so the declared sizes bound the
reading. A media name that is not a plain file name (a folder, ``..``, an
absolute path, a drive) is never used as a path.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ankigen.importers.apkg import UnreadableDeck

MAX_ENTRY = 64 * 1024 * 1024
MAX_TOTAL = 512 * 1024 * 1024
MAX_RATIO = 200
#: Small entries may compress far better than any ratio (a blank image); they are cheap anyway.
_RATIO_FLOOR = 1024 * 1024
_MAX_MAP = 16 * 1024 * 1024


@dataclass(frozen=True)
class PackageMedia:
    """A package's media: file name -> entry name in the zip, and the names refused."""

    path: Path
    entries: dict[str, str]
    refused: tuple[str, ...]

    def read(self, name: str) -> bytes | None:
        """The bytes of media file ``name`` (None when the package does not hold it)."""
        entry = self.entries.get(name)
        if entry is None:
            return None
        with zipfile.ZipFile(self.path) as archive:
            return archive.read(entry)


def check_archive(path: Path) -> None:
    """Raise :class:`UnreadableDeck` for a package whose sizes say it is a zip bomb."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (OSError, zipfile.BadZipFile) as exc:
        raise UnreadableDeck(f"{path}: cannot read: {exc}") from exc
    total = 0
    for info in infos:
        total += info.file_size
        too_big = info.file_size > MAX_ENTRY or total > MAX_TOTAL
        ratio = info.file_size / max(info.compress_size, 1)
        if too_big or (info.file_size > _RATIO_FLOOR and ratio > MAX_RATIO):
            raise UnreadableDeck(
                f"{path}: entry '{info.filename[:80]}' expands to {info.file_size} bytes "
                f"({ratio:.0f} times its packed size): refused as a zip bomb; a real deck "
                f"keeps each file under {MAX_ENTRY // 2**20} MB and all under "
                f"{MAX_TOTAL // 2**20} MB"
            )


def read_media(path: Path) -> PackageMedia:
    """The package's media map, with every unusable name refused (call ``check_archive`` first)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "media" not in names:
                return PackageMedia(path, {}, ())
            if archive.getinfo("media").file_size > _MAX_MAP:
                raise UnreadableDeck(f"{path}: its media list is over {_MAX_MAP} bytes")
            mapping = json.loads(archive.read("media").decode("utf-8") or "{}")
    except (OSError, zipfile.BadZipFile) as exc:
        raise UnreadableDeck(f"{path}: cannot read: {exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise UnreadableDeck(f"{path}: its media list is not JSON: {exc}") from exc
    if not isinstance(mapping, dict):
        raise UnreadableDeck(f"{path}: its media list is not a JSON object")
    entries: dict[str, str] = {}
    refused: list[str] = []
    for entry, name in mapping.items():
        if not isinstance(name, str) or not is_plain_name(name) or entry not in names:
            refused.append(str(name)[:80])
        else:
            entries[name] = entry
    return PackageMedia(path, entries, tuple(refused))


def is_plain_name(name: str) -> bool:
    """A file name that stays in the folder it is written to: no separator, drive or dot name."""
    return (
        0 < len(name) <= 200
        and name.isprintable()
        and not any(c in name for c in '/\\:<>"|?*')
        and not name.startswith(".")
        and name.strip() == name
    )


#: The image files a content file can show (the build's own list, ``render/_images.py``).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")


def is_image_name(name: str) -> bool:
    """A plain file name of an image the build can show: never ``deck.md`` or ``pyproject.toml``.

    Media files are written next to content files, where a ``.md`` would be read as a deck.
    """
    return is_plain_name(name) and name.lower().endswith(IMAGE_SUFFIXES)
