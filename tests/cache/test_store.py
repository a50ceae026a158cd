"""The build cache's store: one SQLite file, sealed rows, safe for two builds at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from ankigen.cache import Decoded, Sealer
from ankigen.cache.store import STORE_NAME, Store
from ankigen.render import MediaCache


def test_values_are_kept_by_kind_scope_and_key(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.write("notes", "deck", {b"a": b"1", b"b": b"2"})
    store.write("notes", "other", {b"a": b"3"})
    store.close()
    again = Store(tmp_path)
    assert again.scope("notes", "deck") == {b"a": b"1", b"b": b"2"}
    assert again.get("notes", "other", b"a") == b"3"
    assert again.get("checks", "deck", b"a") is None
    again.write("notes", "deck", {b"c": b"4", b"a": b"5"}, gone=[b"b"])  # in one transaction
    assert again.scope("notes", "deck") == {b"a": b"5", b"c": b"4"}
    assert again.scope("notes", "other") == {b"a": b"3"}


def test_a_value_written_in_pieces_is_the_one_written_whole(tmp_path: Path) -> None:
    """``write_pieces`` stores (and seals) the join of its pieces, in place of the last."""
    sealer = Sealer(b"k" * 32)
    pieces = [b"first ", b"", bytes(range(256)) * 4_000, b" last"]
    Store(tmp_path / "whole", sealer).write("sections", "deck", {b"": b"".join(pieces)})
    store = Store(tmp_path / "pieces", sealer)
    store.write("sections", "deck", {b"": b"an older value"})
    store.write_pieces("sections", "deck", b"", sum(map(len, pieces)), lambda: iter(pieces))
    store.close()
    assert Store(tmp_path / "pieces", sealer).get("sections", "deck", b"") == b"".join(pieces)
    rows = []
    for name in ("whole", "pieces"):
        with sqlite3.connect(tmp_path / name / STORE_NAME) as db:
            rows.append(db.execute("SELECT kind, scope, key, seal, value FROM records").fetchall())
        db.close()
    assert rows[0] == rows[1]


def test_a_row_not_sealed_with_this_users_key_is_a_miss(tmp_path: Path) -> None:
    Store(tmp_path).write("stamp", "deck", {b"k": b"genuine"})
    attacker = Sealer(b"an attacker's key, not the user's"[:32])
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        forged_seal = attacker.mac(b"stamp", b"deck", b"k", b"forged")
        db.execute("UPDATE records SET value=?, seal=?", (b"forged", forged_seal))
        genuine = db.execute("SELECT seal FROM records").fetchone()[0]
    assert Store(tmp_path).get("stamp", "deck", b"k") is None
    with sqlite3.connect(tmp_path / STORE_NAME) as db:  # a genuine seal moved to another row
        db.execute("UPDATE records SET scope='other', value=?, seal=?", (b"genuine", genuine))
    assert Store(tmp_path).get("stamp", "other", b"k") is None


def test_a_store_copied_from_another_user_or_machine_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "their-state"))
    Store(tmp_path / "a").write("stamp", "deck", {b"k": b"v"})  # sealed with their key
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "our-state"))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / STORE_NAME).write_bytes((tmp_path / "a" / STORE_NAME).read_bytes())
    assert Store(tmp_path / "b").get("stamp", "deck", b"k") is None


def test_a_damaged_or_foreign_file_is_made_anew(tmp_path: Path) -> None:
    (tmp_path / STORE_NAME).write_bytes(b"not a database at all" * 100)
    store = Store(tmp_path)
    assert store.get("stamp", "deck", b"k") is None
    store.write("stamp", "deck", {b"k": b"v"})
    assert Store(tmp_path).get("stamp", "deck", b"k") == b"v"
    store.close()

    (tmp_path / STORE_NAME).unlink()
    with sqlite3.connect(tmp_path / STORE_NAME) as db:  # another program's database
        db.execute("CREATE TABLE records (kind, scope, key, seal, value)")
        db.execute("INSERT INTO records VALUES ('stamp', 'deck', x'6b', x'00', x'76')")
    db.close()
    foreign = Store(tmp_path)
    assert foreign.get("stamp", "deck", b"k") is None
    foreign.write("stamp", "deck", {b"k": b"mine"})
    assert Store(tmp_path).get("stamp", "deck", b"k") == b"mine"


def test_a_folder_that_cannot_hold_it_gives_misses(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("a file, not a folder")
    store = Store(tmp_path / "file" / ".cache", Sealer(b"k" * 32))
    store.write("stamp", "deck", {b"k": b"v"})
    assert store.get("stamp", "deck", b"k") is None


def _write_many(folder: Path, scope: str) -> None:
    store = Store(folder)
    for n in range(50):
        store.write("notes", scope, {str(n).encode(): scope.encode() * 100})
        store.write("checks", "shared", {scope.encode(): str(n).encode()})


def test_two_processes_write_one_store_at_once(tmp_path: Path) -> None:
    Sealer.for_user()  # the key both processes seal with, made before they start
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write_many, args=(tmp_path, s)) for s in ("a", "b")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    store = Store(tmp_path)
    for scope in ("a", "b"):
        rows = store.scope("notes", scope)
        assert rows == {str(n).encode(): scope.encode() * 100 for n in range(50)}
    assert store.scope("checks", "shared") == {b"a": b"49", b"b": b"49"}  # each one's last


def test_a_long_lived_process_keeps_one_store_open_until_its_file_goes(tmp_path: Path) -> None:
    """``ankigen watch`` (``Decoded.store``): one open store per folder across rounds, opened
    again when its file was removed or replaced (a folder cleaned meanwhile)."""
    decoded = Decoded()
    store = decoded.store(tmp_path)
    store.write("k", "deck", {b"a": b"1"})
    assert decoded.store(tmp_path) is store and store.current()

    for suffix in ("", "-wal", "-shm"):
        (tmp_path / (STORE_NAME + suffix)).unlink(missing_ok=True)
    assert not store.current()
    again = decoded.store(tmp_path)
    assert again is not store and again.get("k", "deck", b"a") is None
    again.write("k", "deck", {b"a": b"2"})
    assert Store(tmp_path).get("k", "deck", b"a") == b"2"  # what it writes is on disk


def test_a_media_folder_of_a_long_lived_process_leaves_its_store_open(tmp_path: Path) -> None:
    decoded = Decoded()
    cache = MediaCache(tmp_path, decoded=decoded)
    cache.store.write("k", "deck", {b"a": b"1"})
    cache.close()  # a build's end
    assert MediaCache(tmp_path, decoded=decoded).store is cache.store
    assert MediaCache(tmp_path).store is not cache.store  # a one-shot build opens its own
