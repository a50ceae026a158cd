"""The sanitised SVG images of a deck's last build, reused while their files are unchanged.

Reading and sanitising 2,500 SVG images costs more than the rest of a
one-answer edit. After a build, each SVG image the deck showed is kept in
the build cache's store (``ankigen.cache.store``, kind ``svgs``, one scope per
deck, one row per source file) as its sanitised bytes under the identity its
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
it ships under, so a damaged row is read again rather than trusted. A row's
key holds the code fingerprint (``ankigen.cache.recipe``): a new allow-list
judges every file again; and rows are sealed (``ankigen.cache``): a row no
build of this user wrote, which no allow-list judged, is read again.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from ankigen.cache import Codec, Memo, build_key
from ankigen.model import MediaFile
from ankigen.render._media import MediaCache, content_hash

_FORMAT = 4
_KIND = "svgs"
#: What identifies one version of a file: st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns.
Identity = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class _Stored:
    """A stored image: the identity its file had, its media name, its sanitised bytes."""

    identity: Identity
    name: str
    data: bytes


_CODEC = Codec([_Stored])


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
        self._began_ns = time.time_ns()
        self._settled_ns = cache.tuning.settled_ns
        self._memo: Memo[_Stored] = Memo(
            cache.store, _KIND, stem, _CODEC.dumps, _CODEC.reader(_Stored), cache.decoded
        )
        #: Keep this build's entries (only the images the deck shows now), if they changed.
        self.save = self._memo.save

    def get(self, source: Path, stat: os.stat_result) -> MediaFile | None:
        """The sanitised image of ``source`` stored for this identity, or None.

        The bytes must still hash to the name stored with them: a damaged row
        is read again, never shipped.
        """
        entry = self._memo.get(_key(source))
        if entry is None or entry.identity != identity(stat) or svg_name(entry.data) != entry.name:
            return None
        return self._cache.hold(entry.name, entry.data)

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
        self._memo.put(_key(source), _Stored(version, media.name, media.data))


def _key(source: Path) -> bytes:
    """A row's key: the source file, and the code that judged it (``recipe``)."""
    key: bytes = build_key(_KIND, str(_FORMAT), str(source)).digest()
    return key
