"""Media files and the on-disk cache they live in until packaging."""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class MediaFile:
    """A file shipped in the deck: its name in Anki's media folder and its bytes on disk."""

    name: str
    path: Path


def content_hash(*parts: str | bytes) -> str:
    """A short, stable hash of the parts (names media by content)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8") if isinstance(part, str) else part)
        digest.update(b"\x1f")
    return digest.hexdigest()[:20]


class MediaCache:
    """A folder of rendered media keyed by file name (names carry the hash)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, name: str) -> Path:
        """Where the media file ``name`` is (or would be) cached."""
        return self.folder / name

    def has(self, name: str) -> bool:
        """True when ``name`` is already cached."""
        return self.path(name).is_file()

    def put(self, name: str, data: bytes) -> MediaFile:
        """Store bytes under ``name`` atomically, so a crash never leaves half a file."""
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(name)
        fd, temp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        return MediaFile(name, target)

    def get(self, name: str) -> MediaFile:
        """The cached media file ``name`` (check ``has`` first)."""
        return MediaFile(name, self.path(name))
