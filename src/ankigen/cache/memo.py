"""One cache's values for one deck: the last build's, read by key; this build's, kept for the next.

Every cache that reuses a stage's work goes through a ``Memo``: ``get`` a value
the last build stored (decoded, its lines moved to ``base``), ``put`` one made
now, and ``save`` to make this build's values all the store holds for the
deck. A value of another shape is a miss; a value the format cannot write is
not kept (it is made again next time).

The values of one memo are one row of the store (``marshal`` of a dict of
bytes), read and sealed as one: a warm build of a 10,000-item deck reads
tens of thousands of values, and a row each cost a seal check and a fetch
each (about 0.1 s), where one row costs one. ``save`` writes the row only
when the values changed.

A long-lived process (``ankigen watch``) hands its builds one ``Decoded``: the
values decoded (or put) in an earlier round, by their stored bytes, so the
next round does not decode them again. The same bytes and base always decode
to the same frozen value, so a value taken from it is the one decoding gives.
"""

from __future__ import annotations

import contextlib
import marshal
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from ankigen.cache.kept import Kept
from ankigen.cache.store import Store
from ankigen.cache.tuning import DEFAULT_TUNING

__all__ = ["Decoded", "Memo", "row_pieces", "store_values", "stored_values"]

T = TypeVar("T")
#: The key of a memo's one row in the store (its kind and scope name it).
_ROW = b""


class Decoded:
    """Values decoded in earlier builds of one process, by kind, deck, key, bytes and base."""

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], dict[bytes, tuple[bytes, int, Any]]] = {}

    def of(self, kind: str, scope: str) -> dict[bytes, tuple[bytes, int, Any]]:
        """The values of one cache for one deck: key -> (stored bytes, base, value)."""
        return self._values.setdefault((kind, scope), {})


class Memo(Generic[T]):
    """One cache's rows for one deck (``kind``, ``scope``), read and written as values."""

    def __init__(
        self,
        store: Store | None,
        kind: str,
        scope: str,
        dumps: Callable[[T, int], bytes],
        loads: Callable[[bytes, int], T],
        decoded: Decoded | None = None,
        held_bytes: int = DEFAULT_TUNING.held_values,
    ) -> None:
        """``store``: None keeps nothing (a build without a cache). ``loads`` raises
        ValueError or TypeError for bytes of another shape. ``held_bytes``: this build's
        values held in memory until saved; the rest wait in a scratch file (``Kept``)."""
        self._store, self._kind, self._scope = store, kind, scope
        self._dumps, self._loads = dumps, loads
        self.last = stored_values(store, kind, scope) if store is not None else {}
        self.kept = Kept(store.folder if store is not None else None, held_bytes)
        # Only a long-lived process keeps decoded values: a one-shot build remembers none.
        self._decoded = decoded.of(kind, scope) if decoded is not None else None
        self.hits = 0

    def get(self, key: bytes, base: int = 0) -> T | None:
        """The last build's value for ``key`` (lines counted from ``base``); None: a miss."""
        stored = self.last.get(key)
        if stored is None:
            return None
        known = self._decoded.get(key) if self._decoded is not None else None
        if known is not None and known[0] == stored and known[1] == base:
            value: T = known[2]
        else:
            try:
                value = self._loads(stored, base)
            except (TypeError, ValueError):
                return None
            if self._decoded is not None:
                self._decoded[key] = (stored, base, value)
        self.hits += 1
        self.kept[key] = stored
        return value

    def put(self, key: bytes, value: T, base: int = 0, stored: bytes | None = None) -> None:
        """Keep ``value`` (lines counted from ``base``) under ``key`` for the next build;
        ``stored``: its bytes, when they were made already (by a pool worker)."""
        if self._store is None:
            return
        with contextlib.suppress(TypeError, ValueError):  # not written: made again next time
            stored = self.kept[key] = stored if stored is not None else self._dumps(value, base)
            if self._decoded is not None:
                self._decoded[key] = (stored, base, value)

    def save(self) -> None:
        """Make the kept values all the store holds for the deck, writing only what differs."""
        if self._decoded is not None:
            for key in self._decoded.keys() - self.kept.keys():
                del self._decoded[key]  # a long-lived process holds this build's values only
        if self._store is not None and not self.kept.broken and self._changed():
            with contextlib.suppress(OSError):  # a value could not be read back: no row
                store_values(self._store, self._kind, self._scope, self.kept, self.kept.size())

    def _changed(self) -> bool:
        """Whether the kept values differ from the last build's (each compared as bytes)."""
        last = self.last
        return self.kept.keys() != last.keys() or any(
            self.kept[key] != value for key, value in last.items()
        )


def store_values(
    store: Store, kind: str, scope: str, values: Mapping[bytes, bytes], size: int | None = None
) -> None:
    """Make ``values`` (encoded) all a memo of ``kind`` holds for ``scope`` (``size``: their
    bytes, all told, when known).

    The row is ``marshal.dumps(values, 2)`` (version 2 writes no references, so
    its parts may be made apart), written piece by piece (``Store.write_pieces``):
    a 100,000-item deck's sections are 66 MB, not held twice more while written.
    """
    if size is None:
        size = sum(map(len, values.values()))
    row = 2 + sum(_ENTRY + len(key) for key in values) + size
    store.write_pieces(kind, scope, _ROW, row, lambda: row_pieces(values))


#: The bytes marshal writes around one key and one value (a type code and a length each).
_ENTRY = 10
#: Bytes of entries marshalled at once when a row is written.
_PIECE = 1 << 20


def row_pieces(values: Mapping[bytes, bytes]) -> Iterator[bytes]:
    """``marshal.dumps(values, 2)`` in pieces of about ``_PIECE`` bytes, each made when
    asked for: a dict's type code, its entries a batch at a time, then its end."""
    yield marshal.dumps({}, 2)[:1]
    batch: dict[bytes, bytes] = {}
    size = 0
    for key, value in values.items():
        batch[key] = value
        size += _ENTRY + len(key) + len(value)
        if size >= _PIECE:
            yield marshal.dumps(batch, 2)[1:-1]
            batch, size = {}, 0
    yield marshal.dumps(batch, 2)[1:]


def stored_values(store: Store, kind: str, scope: str) -> dict[bytes, bytes]:
    """The values (encoded) a memo of ``kind`` holds for ``scope``: none when there is no
    row, it is not sealed by this user, or it is of another shape."""
    stored = store.get(kind, scope, _ROW)
    try:
        rows = marshal.loads(stored) if stored is not None else {}
    except (EOFError, ValueError, TypeError):
        return {}
    if type(rows) is not dict or not all(
        type(k) is bytes and type(v) is bytes for k, v in rows.items()
    ):
        return {}
    return rows
