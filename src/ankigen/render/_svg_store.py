"""The sanitised SVG images of a deck's last build, reused while their files are unchanged.

Reading and sanitising 2,500 SVG images costs more than the rest of a
one-answer edit. After a build, each SVG image the deck showed is kept in
``OUT/.cache/<stem>.svgs`` as its sanitised bytes under the identity its
file had when it was read: device, inode, size, and modification and change
times in nanoseconds (a change time cannot be set back by ``touch``). The
next build ships those bytes, without opening the file, when a ``stat`` of
it still gives that identity; any difference reads and sanitises it again.

Two rules keep a stored entry true. Its identity is the ``fstat`` of the
open file before and after the read (a file written during the read is not
stored), and a file changed less than ``CacheTuning.settled_ns`` before this build
began is not stored: a second change within the same tick of the file
system's clock would keep its times. And the bytes are sanitised bytes
only: each is checked, when the build takes it, to hash to the media name
it ships under, so a damaged store is read again rather than trusted. The
store's key holds ankigen's code fingerprint (``ankigen.cache.recipe``): a new
allow-list judges every file again. And the store is sealed with the build
folder's secret (``ankigen.cache.seal``): a store written by anyone else
(which no allow-list judged) is ignored, and every image is read again.
"""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path

from ankigen.cache import recipe
from ankigen.model import MediaFile
from ankigen.render._media import MediaCache, content_hash

_FORMAT = 2
_HEADER = struct.Struct("<I")  # length of the JSON index that follows it
#: What identifies one version of a file: st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns.
Identity = tuple[int, int, int, int, int]
#: A stored image: the identity its file had, its media name, its sanitised bytes.
_Entry = tuple[Identity, str, bytes]


def identity(stat: os.stat_result) -> Identity:
    """The identity of the file version ``stat`` describes."""
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def svg_name(data: bytes) -> str:
    """The media name of sanitised SVG bytes (their content hash)."""
    return f"ag-img-{content_hash(data)}.svg"


class SvgStore:
    """One deck's sanitised SVG images by source file: the last build's, and this build's."""

    def __init__(self, cache: MediaCache, stem: str) -> None:
        self._cache = cache
        self._name = f"{stem}.svgs"
        self._began_ns = time.time_ns()
        self._settled_ns = cache.tuning.settled_ns
        self._old = self._load()
        self._new: dict[str, _Entry] = {}
        self._changed = False

    def get(self, source: Path, stat: os.stat_result) -> MediaFile | None:
        """The sanitised image of ``source`` stored for this identity, or None.

        The bytes must still hash to the name stored with them: a damaged store
        is read again, never shipped.
        """
        key = str(source)
        entry = self._new.get(key) or self._old.get(key)
        if entry is None or entry[0] != identity(stat) or svg_name(entry[2]) != entry[1]:
            return None
        self._new[key] = entry
        return self._cache.hold(entry[1], entry[2])

    def put(
        self, source: Path, before: os.stat_result, after: os.stat_result, media: MediaFile
    ) -> None:
        """Keep the sanitised image of ``source``, read between the two ``fstat`` s given.

        Only images held in memory are kept: the store is no bigger than the
        memory a build may hold them in (``CacheTuning.held_bytes``).
        """
        version = identity(before)
        newest = max(before.st_mtime_ns, before.st_ctime_ns)
        if media.data is None or version != identity(after):
            return  # past the memory budget, or changing while read
        if self._began_ns - newest < self._settled_ns:
            return  # changed too recently: read again next time
        self._new[str(source)] = (version, media.name, media.data)
        self._changed = True

    def save(self) -> None:
        """Write this build's entries (only the images the deck shows now), if they changed."""
        if not self._changed and self._new.keys() == self._old.keys():
            return
        index: dict[str, list[int | str]] = {}
        blobs: list[bytes] = []
        offset = 0
        for key, (version, name, data) in sorted(self._new.items()):
            index[key] = [*version, name, offset, len(data)]
            blobs.append(data)
            offset += len(data)
        head = {"format": _FORMAT, "code": recipe.code_fingerprint(), "entries": index}
        encoded = json.dumps(head, separators=(",", ":")).encode("utf-8")
        # Written piece by piece: no second copy of every image in memory.
        self._cache.write_sealed(self._name, [_HEADER.pack(len(encoded)), encoded, *blobs])

    def _load(self) -> dict[str, _Entry]:
        """The last build's entries; none when there is no store, or a damaged or foreign one."""
        try:
            raw = self._cache.read_sealed(self._name)
            if raw is None:
                return {}  # missing, or not sealed by a build of this folder
            (length,) = _HEADER.unpack_from(raw)
            head = json.loads(raw[_HEADER.size : _HEADER.size + length].decode("utf-8"))
            if head.get("format") != _FORMAT or head.get("code") != recipe.code_fingerprint():
                return {}
            blob = memoryview(raw)[_HEADER.size + length :]
            return {key: _entry(values, blob) for key, values in head["entries"].items()}
        except (OSError, ValueError, TypeError, struct.error, AttributeError):
            return {}  # every image is read and sanitised again


def _entry(values: object, blob: memoryview) -> _Entry:
    """One stored entry: ``[dev, ino, size, mtime_ns, ctime_ns, name, offset, length]``."""
    if not isinstance(values, list) or len(values) != 8 or not isinstance(values[5], str):
        raise ValueError("a damaged entry")
    numbers = [n for n in (*values[:5], *values[6:]) if type(n) is int]
    if len(numbers) != 7:
        raise ValueError("a damaged entry")
    dev, ino, size, mtime_ns, ctime_ns, offset, length = numbers
    data = bytes(blob[offset : offset + length])
    if offset < 0 or len(data) != length:
        raise ValueError("a damaged entry")
    return (dev, ino, size, mtime_ns, ctime_ns), values[5], data
