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
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from ankigen.cache.seal import Sealer

__all__ = ["STORE_NAME", "Store"]

#: The database's name in the cache folder (SQLite adds ``-wal`` and ``-shm`` beside it).
STORE_NAME = "cache.sqlite"
#: Marks the database as this store (``PRAGMA application_id``: "agen").
_APPLICATION_ID = 0x6167656E
#: The layout of the table; another one is a foreign file, made anew. 2: the value is
#: the row's last column, so a row written piece by piece starts as zeros SQLite does
#: not make in memory (``write_pieces``).
_LAYOUT = 2
#: How long a build waits for another one's transaction before it gives up on the cache (s).
_BUSY_SECONDS = 60.0
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    scope TEXT NOT NULL,
    key BLOB NOT NULL,
    seal BLOB NOT NULL,
    value BLOB NOT NULL,
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
        #: The file the open database is (st_dev, st_ino): ``current`` tells it was replaced.
        self._file: tuple[int, int] | None = None

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

    def write(
        self,
        kind: str,
        scope: str,
        values: Mapping[bytes, bytes],
        gone: Iterable[bytes] = (),
    ) -> None:
        """Store ``values`` (each in place of the one under its key) and forget the keys
        ``gone``, in one transaction."""
        rows = [(kind, scope, k, self._seal(kind, scope, k, v), v) for k, v in values.items()]
        with self._transaction() as db:
            if db is None:
                return
            db.executemany(
                "DELETE FROM records WHERE kind=? AND scope=? AND key=?",
                [(kind, scope, key) for key in gone],
            )
            db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)", rows)

    def current(self) -> bool:
        """False when the database this store has open is no longer the file at its path
        (removed, or replaced by another): it should then be opened again."""
        if self._db is None or self._pid != os.getpid() or self._file is None:
            return True  # nothing open here: it opens the file there when used
        try:
            info = os.stat(self.path)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == self._file

    def write_pieces(
        self, kind: str, scope: str, key: bytes, size: int, pieces: Callable[[], Iterable[bytes]]
    ) -> None:
        """Store the value made of the bytes ``pieces()`` gives (``size`` in all) under
        ``key``, in one transaction, as ``write`` stores their join; ``pieces`` is called
        twice (for the seal, then for the row) and must give the same bytes each time.

        Neither this process nor SQLite holds the whole value at once: a bound
        value is copied by SQLite, and again into the row's record (a 100,000-item
        deck's sections, one row of 66 MB, cost 130 MB more at the build's peak).
        """
        fields = (kind.encode(), scope.encode("utf-8", "surrogatepass"), key)
        sealing = self.sealer.sealing(*fields, size=size)
        for piece in pieces():
            sealing.update(piece)
        with self._transaction() as db:
            if db is None:
                return
            # Zeros first, which SQLite writes without making them in memory (the value is
            # the row's last column), then the bytes in place.
            row = db.execute(
                "INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, zeroblob(?))",
                (kind, scope, key, sealing.digest(), size),
            ).lastrowid
            assert row is not None  # an INSERT's
            with db.blobopen("records", "value", row, readonly=False) as blob:
                for piece in pieces():
                    blob.write(piece)

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
                info = os.stat(self.path)
                self._file = (info.st_dev, info.st_ino)
                return self._db
            except sqlite3.DatabaseError:
                _remove(self.path)  # not this store: made anew
            except (sqlite3.Error, OSError):
                return None
        return None


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
