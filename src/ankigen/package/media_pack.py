"""Media entries of the ``.apkg``, deflated once and kept deflated in the cache.

Deflating the same 2,500 images on every rebuild cost more than the rest of
packaging. After a build the deflated bytes of every media entry go into one
pack file in the cache (``<stem>.media.pack``); the next build copies an
entry's bytes from it as they are, when the media file still has the size and
modification time it had then (bytes held in memory: when the entry of
their content-hashed name inflates to them), and deflates only the rest, on
two threads at once (``deflated_all``: zlib lets go of the GIL while it works).

The pack's index is sealed with the build folder's secret and holds the code
fingerprint (``ankigen.cache``: the zlib version among the rest), and each
entry's deflated bytes carry their own seal in it: a pack or an entry written
by anyone else, or by other code, is deflated again, never shipped.

Entries are deflated with ``zip_writer.deflate`` (``zipfile``'s settings), and
``zip_writer.ZipWriter`` writes them into the deck as they are: the bytes of a
deck do not depend on whether its media came from the pack.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import BinaryIO

from ankigen.cache import MAC_SIZE, recipe
from ankigen.model import MediaFile
from ankigen.package.zip_writer import Deflated, deflate
from ankigen.render import MediaCache

_HEADER = struct.Struct("<I")  # length of the JSON index that follows it
_PACK_FORMAT = 2
#: The modification time an entry made from bytes held in memory is stored with.
_HELD = -1
#: Threads that deflate media at once (``MediaPack.deflated_all``), and files read ahead.
DEFLATE_THREADS = 2
_AHEAD = 32


@dataclass(frozen=True)
class _Entry:
    """Where a deflated file sits in the pack, and which file version it was made from."""

    size: int
    mtime_ns: int
    crc: int
    offset: int
    length: int
    #: The seal of the name, version and deflated bytes (hex), under the folder's secret.
    seal: str = ""


class MediaPack:
    """The deflated media of one deck's previous build, and this build's for the next.

    Use it as a context manager: the previous pack stays open while the deck is
    written, and the new one is saved by ``save`` once the deck is in place.
    """

    def __init__(self, cache: MediaCache | None, stem: str) -> None:
        self._cache = cache
        self._name = f"{stem}.media.pack"
        self._handle: BinaryIO | None = None
        self._data_start = 0
        self._old = self._open()
        self._new: dict[str, tuple[_Entry, bytes]] = {}
        self.reused = 0

    def __enter__(self) -> MediaPack:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def deflated(self, file: MediaFile) -> Deflated:
        """The deflated bytes of a media file: from the pack when unchanged, else fresh.

        A file on disk is unchanged while it has the size and modification time
        it had; bytes held in memory when the entry of their name (their content
        hash) has their size and CRC and inflates to exactly them.
        """
        name, version, reused, raw = self._found(file)
        return self._keep(name, version, reused if reused is not None else deflate(raw))

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
            ahead: deque[tuple[str, tuple[int, int], Deflated | Future[Deflated]]] = deque()
            for file in files:
                name, version, reused, raw = self._found(file)
                ahead.append(
                    (name, version, reused if reused is not None else pool.submit(deflate, raw))
                )
                if len(ahead) > _AHEAD:
                    yield self._settled(*ahead.popleft())
            while ahead:
                yield self._settled(*ahead.popleft())

    def _settled(
        self, name: str, version: tuple[int, int], result: Deflated | Future[Deflated]
    ) -> Deflated:
        return self._keep(
            name, version, result if isinstance(result, Deflated) else result.result()
        )

    def _found(self, file: MediaFile) -> tuple[str, tuple[int, int], Deflated | None, bytes]:
        """A file's name and version, and its bytes from the pack (else None, and its bytes)."""
        if file.data is not None:
            return self._held(file.name, file.data)
        if file.path is None:
            raise ValueError(f"media file {file.name} has neither bytes nor a path")
        stat = file.path.stat()
        version = (stat.st_size, stat.st_mtime_ns)
        entry = self._old.get(file.name)
        if entry and (entry.size, entry.mtime_ns) == version:
            data = self._read(file.name, entry)
            if data is not None:
                self.reused += 1
                return file.name, version, Deflated(data, entry.crc, entry.size), b""
        return file.name, version, None, file.path.read_bytes()

    def _held(self, name: str, raw: bytes) -> tuple[str, tuple[int, int], Deflated | None, bytes]:
        """Bytes in memory: reused from the pack when they inflate to these bytes.

        Inflating costs a fraction of deflating, and proves that what ships is
        exactly the bytes the build judged (a CRC could be matched on purpose).
        """
        version = (len(raw), _HELD)
        crc = zlib.crc32(raw)
        entry = self._old.get(name)
        if entry and (entry.size, entry.mtime_ns, entry.crc) == (*version, crc):
            data = self._read(name, entry)
            if data is not None and _inflates_to(data, raw):
                self.reused += 1
                return name, version, Deflated(data, crc, entry.size), b""
        return name, version, None, raw

    def save(self) -> None:
        """Write this build's pack (only what the deck holds now), if anything changed."""
        if self._cache is None:
            return
        if self.reused == len(self._new) == len(self._old):
            return  # every entry came from the pack as it is
        index: dict[str, list[int | str]] = {}
        blobs: list[bytes] = []
        offset = 0
        sealer = self._cache.sealer
        for name, (entry, data) in sorted(self._new.items()):
            seal = sealer.mac(*_sealed_fields(name, entry, data)).hex()
            index[name] = [entry.size, entry.mtime_ns, entry.crc, offset, len(data), seal]
            blobs.append(data)
            offset += len(data)
        head = {"format": _PACK_FORMAT, "code": recipe.code_fingerprint(), "entries": index}
        encoded = b"".join(sealer.seal([json.dumps(head, separators=(",", ":")).encode()]))
        self._cache.write(self._name, [_HEADER.pack(len(encoded)), encoded, *blobs])

    def _keep(self, name: str, version: tuple[int, int], deflated: Deflated) -> Deflated:
        entry = _Entry(*version, deflated.crc, 0, len(deflated.data))
        self._new[name] = (entry, deflated.data)
        return deflated

    def _open(self) -> dict[str, _Entry]:
        if self._cache is None:
            return {}
        try:
            handle = self._cache.path(self._name).open("rb")
        except OSError:
            return {}
        try:
            (length,) = _HEADER.unpack(handle.read(_HEADER.size))
            opened = self._cache.sealer.open(handle.read(length))
            if opened is None:
                raise ValueError("a pack not sealed by a build of this folder")
            head = json.loads(opened.decode("utf-8"))
            if head.get("format") != _PACK_FORMAT or head.get("code") != recipe.code_fingerprint():
                raise ValueError("a pack of another format, or of other code")
            entries = {name: _Entry(*values) for name, values in head["entries"].items()}
        except (OSError, ValueError, TypeError, struct.error, AttributeError):
            handle.close()
            return {}  # a damaged or foreign pack: deflate everything again
        self._handle = handle
        self._data_start = _HEADER.size + length
        return entries

    def _read(self, name: str, entry: _Entry) -> bytes | None:
        """An entry's deflated bytes; None when unreadable or its seal does not match."""
        if self._handle is None or self._cache is None:
            return None
        try:
            self._handle.seek(self._data_start + entry.offset)
            data = self._handle.read(entry.length)
            seal = bytes.fromhex(entry.seal)
        except (OSError, ValueError):
            return None
        if len(data) != entry.length or len(seal) != MAC_SIZE:
            return None
        sealed = self._cache.sealer.matches(seal, *_sealed_fields(name, entry, data))
        return data if sealed else None


def _sealed_fields(name: str, entry: _Entry, data: bytes) -> tuple[bytes, bytes, bytes]:
    """What an entry's seal covers: its name, the file version and CRC, its bytes."""
    version = f"{entry.size}:{entry.mtime_ns}:{entry.crc}".encode()
    return name.encode("utf-8", "surrogatepass"), version, data


def _inflates_to(data: bytes, raw: bytes) -> bool:
    """True when the raw deflate stream ``data`` holds exactly ``raw`` and ends there."""
    inflater = zlib.decompressobj(-15)
    try:
        inflated = inflater.decompress(data, len(raw) + 1)
    except zlib.error:
        return False
    return inflated == raw and inflater.eof and not inflater.unused_data
