"""One cache's values for one deck: the last build's, read by key; this build's, kept for the next.

Every cache that reuses a stage's work goes through a ``Memo``: ``get`` a value
the last build stored (decoded, its lines moved to ``base``), ``put`` one made
now, and ``save`` to make this build's values all the store holds for the
deck. A value of another shape is a miss; a value the format cannot write is
not kept (it is made again next time).

The values of one memo are a few rows of the store (``_ROWS``, each a
``marshal`` of a dict of bytes: the values whose keys' checksum names it),
read and sealed a row at a time: a warm build of a 10,000-item deck reads
tens of thousands of values, and a row each cost a seal check and a fetch
each (about 0.1 s), where a few rows cost a few. ``save`` writes only the rows
whose values changed: an edit rewrites a sixteenth of a deck's values, not
all of them.

A long-lived process (``ankigen watch``) hands its builds one ``Decoded``: the
values decoded (or put) in an earlier round, by their stored bytes, so the
next round does not decode them again. The same bytes and base always decode
to the same frozen value, so a value taken from it is the one decoding gives.
It also keeps what a round worked out from such a value (``Decoded.derived``:
a note's or a check's cache key, from its item), by the value itself: a value
the next round holds again is the same object, so its key is not worked out
from its fields again.
"""

from __future__ import annotations

import contextlib
import functools
import marshal
import sys
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from ankigen.cache.kept import Kept
from ankigen.cache.store import Store
from ankigen.cache.tuning import DEFAULT_TUNING

__all__ = ["Decoded", "Memo", "Recall", "row_pieces", "store_values", "stored_values"]

T = TypeVar("T")
S = TypeVar("S")
V = TypeVar("V")
D = TypeVar("D")
#: The key of a memo's one row in the store in earlier code (now: ``_SHARDS``).
_ROW = b""


class Decoded:
    """What one long-lived process (``ankigen watch``) keeps from one build to the next:
    values decoded from the store (by kind, deck, key, bytes and base), what a round
    worked out from them (``recall``, ``derived``), and each cache folder's open store."""

    def __init__(self) -> None:
        self._values: dict[tuple[str, str], dict[bytes, tuple[bytes, int, Any]]] = {}
        self._recalls: dict[tuple[str, str], Recall[Any]] = {}
        self._stores: dict[Path, Store] = {}

    def store(self, folder: Path) -> Store:
        """The store of the cache ``folder``, kept open from one round to the next.

        Each build opening and closing its own made SQLite fold its log into the
        database and sync it to disk at every close: a third of a 1,000-item watch
        round's wall time. A store whose file was removed or replaced meanwhile is
        opened again.
        """
        store = self._stores.get(folder)
        if store is None or not store.current():
            if store is not None:
                store.close()
            store = self._stores[folder] = Store(folder)
        return store

    def of(self, kind: str, scope: str) -> dict[bytes, tuple[bytes, int, Any]]:
        """The values of one cache for one deck: key -> (stored bytes, base, value)."""
        return self._values.setdefault((kind, scope), {})

    def recall(self, kind: str, scope: str, context: str) -> Recall[Any]:
        """A new round's ``Recall`` of ``kind`` for one deck (``scope``): it knows what
        the last round's worked out under the same ``context`` (every other input of
        the work, e.g. a key's shared part), and forgets the round before."""
        last = self._recalls.get((kind, scope))
        known = last.now if last is not None and last.context == context else {}
        recall: Recall[Any] = Recall(context, known)
        self._recalls[(kind, scope)] = recall
        return recall

    def derived(
        self, kind: str, scope: str, context: str, sources: Sequence[S], work: Callable[[S], V]
    ) -> list[V]:
        """``work(source)`` for each of ``sources``, in order, through a new round's
        ``recall``: a source the last round held gets that round's result again."""
        recall: Recall[V] = self.recall(kind, scope, context)
        results: list[V] = []
        for source in sources:
            value = recall.get(source, _MISSING)
            if value is _MISSING:
                value = work(source)
            recall.put(source, value)
            results.append(value)
        return results


#: What ``Recall.get`` returns for a source it does not know (None is a value).
_MISSING: Any = object()


class Recall(Generic[V]):
    """What one round worked out from immutable values, for the next round to take again.

    A round of a long-lived process holds many of the last round's values again
    as the very same objects (``Decoded`` gives them back), so what was worked
    out from one (a cache key, a finished note) is known by the value's identity:
    no field is read or hashed again. The work must depend on the value and on
    the recall's ``context`` alone, and the values be immutable (the model's
    frozen types). Each value is held until the next round, so no other object
    can take its id meanwhile; only what this round ``put`` is passed on.
    """

    def __init__(self, context: str, known: dict[int, tuple[Any, V]]) -> None:
        self.context = context
        self._known = known
        self.now: dict[int, tuple[Any, V]] = {}

    def get(self, source: object, default: D) -> V | D:
        """What the last round worked out from ``source`` itself, or ``default``."""
        entry = self._known.get(id(source))
        return entry[1] if entry is not None and entry[0] is source else default

    def put(self, source: object, value: V) -> None:
        """What this round worked out from ``source``, for the next."""
        self.now[id(source)] = (source, value)


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
        # Only a long-lived process keeps decoded values: a one-shot build remembers none.
        self._decoded = decoded.of(kind, scope) if decoded is not None else None
        if self._decoded is not None:
            # It holds every value's bytes with its decoded value already: writing them to
            # a scratch file as well would save no memory and cost each round its writes.
            held_bytes = sys.maxsize
        self.kept = Kept(store.folder if store is not None else None, held_bytes)
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
        if self._store is not None and not self.kept.broken:
            with contextlib.suppress(OSError):  # a value could not be read back: no row
                store_values(self._store, self._kind, self._scope, self.kept, self.last)


def store_values(
    store: Store,
    kind: str,
    scope: str,
    values: Mapping[bytes, bytes],
    last: Mapping[bytes, bytes] | None = None,
) -> None:
    """Make ``values`` (encoded) all a memo of ``kind`` holds for ``scope``.

    The values are kept in ``_ROWS`` rows, each value in the one its key's checksum
    names; ``last``, what the store held, spares the rows whose values are the same
    (nothing is written when none changed). A row is ``marshal.dumps(part, 2)``
    (version 2 writes no references, so its parts may be made apart), written
    piece by piece (``Store.write_pieces``), one row at a time: a 100,000-item
    deck's sections are 66 MB, never held twice more while written.
    """
    now, before = _keys_in_rows(values), _keys_in_rows(last) if last is not None else {}
    changed = [
        row
        for row, keys in now.items()
        if last is None
        or set(before.get(row, ())) != set(keys)
        or any(values[key] != last[key] for key in keys)
    ]
    gone = [row for row in _SHARDS if row not in now and (last is None or row in before)]
    if not changed and not gone:
        return
    for row in changed:
        part = {key: values[key] for key in now[row]}
        size = 2 + sum(_ENTRY + len(key) + len(value) for key, value in part.items())
        store.write_pieces(kind, scope, row, size, functools.partial(row_pieces, part))
    store.write(kind, scope, {}, [*gone, _ROW])  # and the one row of earlier code, if any


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
    """The values (encoded) a memo of ``kind`` holds for ``scope``: none from a row that
    is not sealed by this user, or of another shape."""
    values: dict[bytes, bytes] = {}
    for stored in store.scope(kind, scope).values():
        try:
            rows = marshal.loads(stored)
        except (EOFError, ValueError, TypeError):
            continue
        if type(rows) is dict and all(
            type(k) is bytes and type(v) is bytes for k, v in rows.items()
        ):
            values.update(rows)
    return values


#: How many rows hold a memo's values. An edit changes a few values: only their rows
#: are written again (a 10,000-item deck's sections are 6.5 MB, which every edit and
#: every watch round wrote and sealed whole while they were one row).
_ROWS = 16
#: The keys of a memo's rows.
_SHARDS = tuple(bytes([row]) for row in range(_ROWS))


def _keys_in_rows(values: Mapping[bytes, bytes]) -> dict[bytes, list[bytes]]:
    """The keys of ``values`` by the row that holds each (by the key's CRC-32)."""
    rows: dict[bytes, list[bytes]] = {}
    for key in values:
        rows.setdefault(_SHARDS[zlib.crc32(key) % _ROWS], []).append(key)
    return rows
