"""The build cache's one store: a SQLite database in ``OUT/.cache``, each row sealed.

Every cache of a build keeps its records here as rows of one table:
``(kind, scope, key) -> value``, where ``kind`` names the cache (``stamp``,
``checks``, ``notes``, ...), ``scope`` the deck (its file stem) and ``key`` the
record (usually a ``recipe.build_key`` digest). Values are bytes, most of them
written by ``cache.codec``.

SQLite does what the hand-written formats did by hand: a write is one
transaction (a crash never leaves half a record), the database runs in WAL
mode with a busy timeout, so two builds into one folder take turns instead of
failing or losing each other's rows, and a reader never sees a half-written
deck. A file that is not this store (damaged, another program's database,
another layout) is removed and made anew: a cache is never worth a failed build.

Each row carries a seal: an HMAC of its kind, scope, key and value under
this user's cache key (``cache.seal``), kept outside the build folder, so a
row written by anyone without the key (a database copied from elsewhere,
restored from a CI cache, or forged) is a miss, never trusted.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from ankigen.cache.seal import Sealer

__all__ = ["STORE_NAME", "Rows", "Store"]

#: The database's name in the cache folder (SQLite adds ``-wal`` and ``-shm`` beside it).
STORE_NAME = "cache.sqlite"
#: Marks the database as this store (``PRAGMA application_id``: "agen").
_APPLICATION_ID = 0x6167656E
#: The layout of the table; another one is a foreign file, made anew.
_LAYOUT = 1
#: How long a build waits for another one's transaction before it gives up on the cache (s).
_BUSY_SECONDS = 60.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    key BLOB NOT NULL,
    value BLOB NOT NULL,
    seal BLOB NOT NULL,
    PRIMARY KEY (kind, scope, key)
)
"""


class Store:
    """The store of one cache folder, opened on first use (in each process that uses it)."""

    def __init__(self, folder: Path, sealer: Sealer | None = None) -> None:
        """``sealer``: this user's (``Sealer.for_user``) when not given."""
        self.folder = folder
        self.path = folder / STORE_NAME
        self._sealer = sealer
        self._db: sqlite3.Connection | None = None
        self._pid = 0

    @property
    def sealer(self) -> Sealer:
        """The sealer of the rows (this user's key, made on first use)."""
        if self._sealer is None:
            self._sealer = Sealer.for_user()
        return self._sealer

    def get(self, kind: str, scope: str, key: bytes) -> bytes | None:
        """The value stored under ``(kind, scope, key)``; None when missing or not sealed here."""
        rows = self._select(
            "SELECT key, value, seal FROM records WHERE kind=? AND scope=? AND key=?",
            (kind, scope, key),
        )
        return self._opened(kind, scope, rows).get(key)

    def scope(self, kind: str, scope: str) -> dict[bytes, bytes]:
        """Every value of ``kind`` stored for ``scope``, by key; rows not sealed here left out."""
        rows = self._select(
            "SELECT key, value, seal FROM records WHERE kind=? AND scope=?", (kind, scope)
        )
        return self._opened(kind, scope, rows)

    def keys(self, kind: str, scope: str) -> set[bytes]:
        """The keys of ``kind`` stored for ``scope``, values unread (``get`` checks each seal)."""
        db = self._connection()
        if db is None:
            return set()
        try:
            rows = db.execute(
                "SELECT key FROM records WHERE kind=? AND scope=?", (kind, scope)
            ).fetchall()
        except sqlite3.Error:
            return set()
        return {row[0] for row in rows if isinstance(row[0], bytes)}

    def put(self, kind: str, scope: str, key: bytes, value: bytes) -> None:
        """Store one value (in place of the one under that key, if any)."""
        self._write(kind, scope, {key: value}, replace=False)

    def replace(
        self,
        kind: str,
        scope: str,
        values: Mapping[bytes, bytes],
        last: Mapping[bytes, bytes] | None = None,
    ) -> None:
        """Make ``values`` all that ``kind`` stores for ``scope``, in one transaction.

        ``last``: what the caller read of them (``scope``); then only the rows that
        differ are written or removed (an edit of one note rewrites one row, not all).
        """
        if last is None:
            self._write(kind, scope, values, replace=True)
            return
        changed = {key: value for key, value in values.items() if last.get(key) != value}
        gone = [(kind, scope, key) for key in last.keys() - values.keys()]
        if not changed and not gone:
            return
        self._write(kind, scope, changed, replace=False, gone=gone)

    def update(self, kind: str, scope: str, values: Mapping[bytes, bytes]) -> None:
        """Add ``values`` to what ``kind`` stores for ``scope`` (keys given replace theirs)."""
        self._write(kind, scope, values, replace=False)

    def delete(self, kind: str, scope: str | None = None) -> None:
        """Forget every row of ``kind`` (for ``scope``, or for every scope)."""
        with self._transaction() as db:
            if db is None:
                return
            if scope is None:
                db.execute("DELETE FROM records WHERE kind=?", (kind,))
            else:
                db.execute("DELETE FROM records WHERE kind=? AND scope=?", (kind, scope))

    def close(self) -> None:
        """Close the connection (it is opened again when used)."""
        if self._db is not None and self._pid == os.getpid():
            self._db.close()
        self._db = None

    # -- rows and seals -----------------------------------------------------

    def _seal(self, kind: str, scope: str, key: bytes, value: bytes) -> bytes:
        return self.sealer.mac(kind.encode(), scope.encode("utf-8", "surrogatepass"), key, value)

    def _opened(
        self, kind: str, scope: str, rows: Iterable[tuple[bytes, bytes, bytes]]
    ) -> dict[bytes, bytes]:
        sealer = self.sealer
        fields = (kind.encode(), scope.encode("utf-8", "surrogatepass"))
        return {
            bytes(key): bytes(value)
            for key, value, seal in rows
            if isinstance(seal, bytes) and sealer.matches(seal, *fields, key, value)
        }

    def _select(self, query: str, args: tuple[object, ...]) -> list[tuple[bytes, bytes, bytes]]:
        db = self._connection()
        if db is None:
            return []
        try:
            rows = db.execute(query, args).fetchall()
        except sqlite3.Error:
            return []  # locked past the timeout, or damaged since opened: a miss
        return [row for row in rows if isinstance(row[0], bytes) and isinstance(row[1], bytes)]

    def _write(
        self,
        kind: str,
        scope: str,
        values: Mapping[bytes, bytes],
        *,
        replace: bool,
        gone: list[tuple[str, str, bytes]] | None = None,
    ) -> None:
        rows = [(kind, scope, k, v, self._seal(kind, scope, k, v)) for k, v in values.items()]
        with self._transaction() as db:
            if db is None:
                return
            if replace:
                db.execute("DELETE FROM records WHERE kind=? AND scope=?", (kind, scope))
            if gone:
                db.executemany("DELETE FROM records WHERE kind=? AND scope=? AND key=?", gone)
            db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)", rows)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection | None]:
        """A write transaction (None when there is no store); a failed one writes nothing."""
        db = self._connection()
        if db is None:
            yield None
            return
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            yield None  # another build held the store past the timeout: no record this time
            return
        try:
            yield db
            db.execute("COMMIT")
        except sqlite3.Error:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")  # a full disk, say: the build goes on without it

    # -- opening ------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection | None:
        """The open database of this process; None when none can be kept (a read-only folder)."""
        if self._db is not None and self._pid == os.getpid():
            return self._db
        self._db, self._pid = None, os.getpid()  # a forked child opens its own
        for _ in range(2):
            try:
                self._db = _open(self.path)
                return self._db
            except sqlite3.DatabaseError:
                _remove(self.path)  # not this store: made anew
            except (sqlite3.Error, OSError):
                return None
        return None


class Rows:
    """One cache's rows for one deck: the last build's, and the ones this build keeps.

    ``save`` makes the kept rows all the store holds for the deck (the rows of
    what the deck no longer has go), and writes nothing when they are the
    rows the store holds already.
    """

    def __init__(self, store: Store | None, kind: str, scope: str) -> None:
        """``store``: None keeps nothing (a build without a cache)."""
        self._store, self._kind, self._scope = store, kind, scope
        self.last = store.scope(kind, scope) if store is not None else {}
        self.kept: dict[bytes, bytes] = {}
        self._changed = False

    def get(self, key: bytes) -> bytes | None:
        """The value kept now for ``key``, else the last build's, else None."""
        return self.kept.get(key) or self.last.get(key)

    def keep(self, key: bytes, value: bytes) -> None:
        """Keep ``value`` under ``key`` for the next build."""
        if self._store is not None:
            self._changed = self._changed or self.last.get(key) != value
            self.kept[key] = value

    def save(self) -> None:
        """Put the kept rows in place of the last build's: only those that differ."""
        if self._store is not None and (self._changed or self.kept.keys() != self.last.keys()):
            self._store.replace(self._kind, self._scope, self.kept, self.last)


def _open(path: Path) -> sqlite3.Connection:
    """The store at ``path``, made when missing; raises DatabaseError when it is foreign."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # isolation_level=None: transactions are the explicit BEGIN/COMMIT above.
    db = sqlite3.connect(path, timeout=_BUSY_SECONDS, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps the file whole on a crash
        application, layout = (
            db.execute("PRAGMA application_id").fetchone()[0],
            db.execute("PRAGMA user_version").fetchone()[0],
        )
        if (application, layout) != (_APPLICATION_ID, _LAYOUT):
            if application != 0 or db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise sqlite3.DatabaseError("not an ankigen cache store")
            db.execute("BEGIN IMMEDIATE")
            db.execute(_SCHEMA)
            db.execute(f"PRAGMA application_id={_APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={_LAYOUT}")
            db.execute("COMMIT")
        return db
    except BaseException:
        db.close()
        raise


def _remove(path: Path) -> None:
    """Remove a database that is not the store, and SQLite's files beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()
