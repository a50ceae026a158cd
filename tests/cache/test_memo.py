"""A cache's values for one deck: read by key, kept for the next build, saved only when changed."""

from __future__ import annotations

import marshal
from collections.abc import Callable
from pathlib import Path

from ankigen.cache import Decoded, Memo, Store, store_values, stored_values
from ankigen.cache.kept import Kept
from ankigen.cache.memo import row_pieces


def _dumps(value: tuple[str, int], base: int) -> bytes:
    return marshal.dumps((value[0], value[1] - base))


def _loads(stored: bytes, base: int) -> tuple[str, int]:
    text, line = marshal.loads(stored)
    if type(text) is not str or type(line) is not int:
        raise ValueError("another shape")
    return text, line + base


def _memo(store: Store | None, decoded: Decoded | None = None) -> Memo[tuple[str, int]]:
    return Memo(store, "notes", "deck", _dumps, _loads, decoded)


def test_values_come_back_with_their_lines_moved_to_the_base(tmp_path: Path) -> None:
    memo = _memo(Store(tmp_path))
    memo.put(b"a", ("alpha", 12), base=10)
    memo.save()
    again = _memo(Store(tmp_path))
    assert again.get(b"a", base=20) == ("alpha", 22)
    assert again.get(b"b") is None and again.hits == 1


def test_a_row_is_marshal_of_its_values_made_in_pieces(tmp_path: Path) -> None:
    """The row is written a batch of values at a time; its bytes are one ``marshal.dumps``."""
    values = {bytes([n % 256, n // 256]): bytes(range(256)) * (n % 40) for n in range(3_000)}
    assert b"".join(row_pieces(values)) == marshal.dumps(values, 2)
    assert b"".join(row_pieces({})) == marshal.dumps({}, 2)
    store_values(Store(tmp_path), "sections", "deck", values)
    assert stored_values(Store(tmp_path), "sections", "deck") == values


def test_save_keeps_only_what_this_build_kept(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first = _memo(store)
    for key in (b"a", b"b", b"c"):
        first.put(key, (key.decode(), 1))
    first.save()
    second = _memo(store)
    assert second.get(b"a") == ("a", 1)  # reused: kept
    second.put(b"d", ("d", 1))  # new
    second.save()  # b and c are no longer kept
    assert set(stored_values(store, "notes", "deck")) == {b"a", b"d"}


def test_an_unchanged_build_writes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first = _memo(store)
    first.put(b"a", ("a", 1))
    first.save()
    second = _memo(store)
    assert second.get(b"a") == ("a", 1)
    store_values(store, "notes", "deck", {})  # so a write would show
    second.save()
    assert stored_values(store, "notes", "deck") == {}


def test_a_value_of_another_shape_is_a_miss_and_one_it_cannot_write_is_not_kept(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    store_values(store, "notes", "deck", {b"a": marshal.dumps(["not", "a", "pair"])})
    memo = _memo(store)
    assert memo.get(b"a") is None and memo.hits == 0
    memo.put(b"b", ("b", object()))  # type: ignore[arg-type]  # marshal cannot write it
    memo.save()
    assert stored_values(store, "notes", "deck") == {}


def test_without_a_store_nothing_is_read_or_kept(tmp_path: Path) -> None:
    memo = _memo(None)
    memo.put(b"a", ("a", 1))
    memo.save()
    assert memo.get(b"a") is None and memo.kept == {}


def test_decoded_values_are_reused_for_the_same_bytes_and_base(tmp_path: Path) -> None:
    calls: list[bytes] = []

    def counting(stored: bytes, base: int) -> tuple[str, int]:
        calls.append(stored)
        return _loads(stored, base)

    store, decoded = Store(tmp_path), Decoded()
    first = Memo(store, "notes", "deck", _dumps, counting, decoded)
    made = ("alpha", 3)
    first.put(b"a", made, base=1)
    first.save()
    second = Memo(store, "notes", "deck", _dumps, counting, decoded)
    assert second.get(b"a", base=1) is made and calls == []  # put in an earlier round
    assert second.get(b"a", base=5) == ("alpha", 7) and len(calls) == 1  # another base
    second.save()
    store_values(store, "notes", "deck", {b"a": _dumps(("beta", 3), 1)})  # changed since
    third = Memo(store, "notes", "deck", _dumps, counting, decoded)
    assert third.get(b"a", base=1) == ("beta", 3) and len(calls) == 2


def test_decoded_holds_only_the_last_builds_values() -> None:
    decoded = Decoded()
    memo = Memo(None, "notes", "deck", _dumps, _loads, decoded)
    memo.save()
    assert decoded.of("notes", "deck") == {}


def _counted(work: list[str]) -> Callable[[tuple[str, ...]], str]:
    def key(value: tuple[str, ...]) -> str:
        work.append(value[0])
        return "-".join(value)

    return key


def test_derived_values_are_worked_out_again_only_for_new_sources() -> None:
    decoded, work = Decoded(), list[str]()
    kept, edited = ("kept", "a"), ("edited", "b")
    first = decoded.derived("keys", "deck", "shared", [kept, edited], _counted(work))
    assert first == ["kept-a", "edited-b"] and work == ["kept", "edited"]
    # An equal value that is another object is worked out again: identity, not equality.
    again = tuple(["edited", "b"])
    second = decoded.derived("keys", "deck", "shared", [kept, again], _counted(work))
    assert second == ["kept-a", "edited-b"] and work == ["kept", "edited", "edited"]


def test_derived_values_of_another_context_or_an_older_round_are_forgotten() -> None:
    decoded, work = Decoded(), list[str]()
    value = ("a", "b")
    decoded.derived("keys", "deck", "shared", [value], _counted(work))
    decoded.derived("keys", "deck", "other settings", [value], _counted(work))
    assert work == ["a", "a"]  # the context changed: the key's other inputs did
    decoded.derived("keys", "deck", "other settings", [], _counted(work))
    decoded.derived("keys", "deck", "other settings", [value], _counted(work))
    assert work == ["a", "a", "a"]  # a round without it let it go
    decoded.derived("keys", "another deck", "other settings", [value], _counted(work))
    assert work == ["a", "a", "a", "a"]


def test_a_recall_knows_only_what_the_last_round_put() -> None:
    decoded = Decoded()
    value, other = ("a",), ("b",)
    first = decoded.recall("notes", "deck", "context")
    assert first.get(value, None) is None
    first.put(value, "note of a")
    second = decoded.recall("notes", "deck", "context")
    assert second.get(value, None) == "note of a"
    assert second.get(other, None) is None
    third = decoded.recall("notes", "deck", "context")  # the second round put nothing
    assert third.get(value, None) is None


def _rows(store: Store) -> dict[bytes, bytes]:
    return store.scope("notes", "deck")


def test_an_edit_rewrites_only_the_row_that_holds_the_changed_value(tmp_path: Path) -> None:
    store = Store(tmp_path)
    values = {bytes([n]) * 8: marshal.dumps(n) for n in range(200)}
    store_values(store, "notes", "deck", values)
    before = _rows(store)
    assert 10 <= len(before) <= 16  # the values spread over the rows
    assert stored_values(store, "notes", "deck") == values

    edited = {**values, bytes([7]) * 8: marshal.dumps("edited")}
    store_values(store, "notes", "deck", edited, last=values)
    after = _rows(store)
    assert stored_values(store, "notes", "deck") == edited
    assert sum(after[row] != before[row] for row in before) == 1 and after.keys() == before.keys()


def test_a_row_of_earlier_code_or_one_left_empty_is_removed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.write("notes", "deck", {b"": marshal.dumps({b"old": b"value"})})  # one row, as before
    assert stored_values(store, "notes", "deck") == {b"old": b"value"}
    store_values(store, "notes", "deck", {b"a": b"1"})
    assert [marshal.loads(row) for row in _rows(store).values()] == [{b"a": b"1"}]
    store_values(store, "notes", "deck", {}, last={b"a": b"1"})
    assert _rows(store) == {}


def test_values_past_the_budget_wait_in_a_scratch_file_and_give_the_same_row(
    tmp_path: Path,
) -> None:
    """A memo holding no value in memory writes the rows of one holding all of them."""
    rows = []
    for name, held in (("memory", 1 << 30), ("scratch", 0), ("some", 300)):
        store = Store(tmp_path / name)
        memo: Memo[tuple[str, int]] = Memo(store, "notes", "deck", _dumps, _loads, None, held)
        for n in range(50):
            memo.put(bytes([n]), (f"value {n}" * n, n))
        memo.put(bytes([7]), ("again", 7))  # in its first place, as a dict keeps it
        assert b"\x03" in memo.kept and len(memo.kept) == 50
        assert memo.kept[bytes([7])] == _dumps(("again", 7), 0)
        memo.save()
        rows.append(stored_values(Store(tmp_path / name), "notes", "deck"))
    assert rows[0] == rows[1] == rows[2]
    assert sorted(rows[0]) == sorted(rows[1]) == [bytes([n]) for n in range(50)]
    assert not list(tmp_path.glob("*/tmp*"))  # the scratch file has no name


def test_values_are_held_in_memory_where_no_scratch_file_can_be_made(tmp_path: Path) -> None:
    kept = Kept(tmp_path / "no such folder", held_bytes=0)
    kept[b"a"] = b"alpha"
    kept[b"b"] = b"beta"
    assert dict(kept) == {b"a": b"alpha", b"b": b"beta"} and not kept.broken


def test_values_read_back_between_writes_stay_whole(tmp_path: Path) -> None:
    """A value read from the scratch file (``key in``, a hit compared) does not move where
    the next one is written."""
    kept = Kept(tmp_path, held_bytes=4)
    expected = {}
    for n in range(20):
        expected[bytes([n])] = kept[bytes([n])] = bytes([n]) * (n + 3)
        assert kept[bytes([n // 2])] == expected[bytes([n // 2])]
    assert dict(kept) == expected and kept.size() == sum(map(len, expected.values()))
