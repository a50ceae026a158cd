"""Media entries of the ``.apkg``, deflated once and kept deflated in the cache.

Deflating the same 2,500 images on every rebuild cost more than the rest of
packaging. After a build the deflated bytes of every media entry go into the
build cache's store (``ankigen.cache.store``, kind ``pack``, one scope per
deck); the next build copies an entry's bytes from it as they are, when the
media file still has the size and modification time it had then (bytes held
in memory: when the entry of their content-hashed name inflates to them), and
deflates only the rest, on two threads at once (``deflated_all``: zlib lets go
of the GIL while it works).

A row's key holds the entry's name and file version and the code fingerprint
(``ankigen.cache.recipe``: the zlib version among the rest), and the row is
sealed with this user's cache key: an entry written by anyone else, or by
other code, is deflated again, never shipped.

Entries are deflated with ``zip_writer.deflate`` (``zipfile``'s settings), and
``zip_writer.ZipWriter`` writes them into the deck as they are: the bytes of a
deck do not depend on whether its media came from the pack.
"""

from __future__ import annotations

import zlib
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from ankigen.cache import Codec, Memo, build_key, key_with
from ankigen.model import MediaFile
from ankigen.package.zip_writer import Deflated, deflate
from ankigen.render import MediaCache

_KIND = "pack"
_PACK_FORMAT = 3
#: The modification time an entry made from bytes held in memory is stored with.
_HELD = -1
#: Threads that deflate media at once (``MediaPack.deflated_all``), and files read ahead.
DEFLATE_THREADS = 2
_AHEAD = 32


_CODEC = Codec([Deflated])


class MediaPack:
    """The deflated media of one deck's previous build, and this build's for the next.

    Use it as a context manager: the previous pack stays open while the deck is
    written, and the new one is saved by ``save`` once the deck is in place.
    """

    def __init__(self, cache: MediaCache | None, stem: str) -> None:
        # Not kept decoded between builds (``Decoded``): decoding one is a copy of its bytes.
        store = cache.store if cache is not None else None
        self._memo: Memo[Deflated] = Memo(store, _KIND, stem, _CODEC.dumps, _CODEC.reader(Deflated))
        self._keys = build_key(_KIND, str(_PACK_FORMAT))  # what every entry's key starts with
        self.reused = 0

    def __enter__(self) -> MediaPack:
        return self

    def __exit__(self, *exc: object) -> None:
        self._memo.last = {}

    def deflated(self, file: MediaFile) -> Deflated:
        """The deflated bytes of a media file: from the pack when unchanged, else fresh.

        A file on disk is unchanged while it has the size and modification time
        it had; bytes held in memory when the entry of their name (their content
        hash) has their size and CRC and inflates to exactly them.
        """
        key, reused, raw = self._found(file)
        return self._keep(key, reused if reused is not None else deflate(raw))

    def deflated_all(
        self, files: Sequence[MediaFile], threads: int = DEFLATE_THREADS
    ) -> Iterator[Deflated]:
        """``deflated`` of each file, in order; the fresh ones deflated on ``threads`` threads.

        zlib lets go of the GIL while it deflates, so the threads deflate at
        once (a cold image build deflates thousands of SVGs). The pack is read
        and filled by this thread only, in the files' order, a few files ahead.
        """
        if threads < 2 or len(files) < 2:
            yield from map(self.deflated, files)
            return
        with ThreadPoolExecutor(threads) as pool:
            ahead: deque[tuple[bytes, Deflated | Future[Deflated]]] = deque()
            for file in files:
                key, reused, raw = self._found(file)
                ahead.append((key, reused if reused is not None else pool.submit(deflate, raw)))
                if len(ahead) > _AHEAD:
                    yield self._settled(*ahead.popleft())
            while ahead:
                yield self._settled(*ahead.popleft())

    def _settled(self, key: bytes, result: Deflated | Future[Deflated]) -> Deflated:
        return self._keep(key, result if isinstance(result, Deflated) else result.result())

    def _found(self, file: MediaFile) -> tuple[bytes, Deflated | None, bytes]:
        """A file's key in the pack (``_key``), and its entry from the pack (else None, and
        the file's bytes)."""
        if file.data is not None:
            return self._held(file.name, file.data)
        if file.path is None:
            raise ValueError(f"media file {file.name} has neither bytes nor a path")
        stat = file.path.stat()
        version = (stat.st_size, stat.st_mtime_ns)
        key = self._key(file.name, version)
        stored = self._read(key, version)
        if stored is not None:
            self.reused += 1
            return key, stored, b""
        return key, None, file.path.read_bytes()

    def _held(self, name: str, raw: bytes) -> tuple[bytes, Deflated | None, bytes]:
        """Bytes in memory: reused from the pack when they inflate to these bytes.

        Inflating costs a fraction of deflating, and proves that what ships is
        exactly the bytes the build judged (a CRC could be matched on purpose).
        """
        version = (len(raw), _HELD)
        key = self._key(name, version)
        stored = self._read(key, version)
        if stored is not None and stored.crc == zlib.crc32(raw) and _inflates_to(stored.data, raw):
            self.reused += 1
            return key, stored, b""
        return key, None, raw

    def save(self) -> None:
        """Keep this build's entries (only what the deck holds now), if anything changed."""
        self._memo.save()

    def _keep(self, key: bytes, deflated: Deflated) -> Deflated:
        if key not in self._memo.kept:  # a reused entry is kept as it was stored
            self._memo.put(key, deflated)
        return deflated

    def _read(self, key: bytes, version: tuple[int, int]) -> Deflated | None:
        """The stored entry under ``key`` (of a file of this version); None when none, or
        damaged."""
        deflated = self._memo.get(key)
        return deflated if deflated is not None and deflated.size == version[0] else None

    def _key(self, name: str, version: tuple[int, int]) -> bytes:
        """An entry's key: its name and file version, and the code (zlib's version too)."""
        size, mtime_ns = version
        key: bytes = key_with(self._keys.copy(), name, str(size), str(mtime_ns)).digest()
        return key


def _inflates_to(data: bytes, raw: bytes) -> bool:
    """True when the raw deflate stream ``data`` holds exactly ``raw`` and ends there."""
    inflater = zlib.decompressobj(-15)
    try:
        inflated = inflater.decompress(data, len(raw) + 1)
    except zlib.error:
        return False
    return inflated == raw and inflater.eof and not inflater.unused_data
