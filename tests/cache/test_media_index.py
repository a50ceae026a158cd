"""The media index: a settled file with the identity recorded is not read again; any other is
read, and used only when its bytes hash to the digest recorded."""

from __future__ import annotations

import marshal
import time
from pathlib import Path

import pytest

from ankigen.cache import Decoded, recipe
from ankigen.render import MediaCache
from ankigen.render import _media_index as media_index
from ankigen.render._media_index import MediaIndex


def _later() -> int:
    """A build that begins a minute from now (read when the test runs, not at import)."""
    return time.time_ns() + 60 * 10**9


def _never_read(path: Path) -> str:
    raise AssertionError(f"{path.name} was read again")


def test_a_settled_unchanged_file_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = MediaCache(tmp_path)
    cache.put("ag-math-a.svg", b"<svg>a</svg>", (1.0, 2.0, 0.25))
    cache.save_index()
    monkeypatch.setattr(media_index, "_file_digest", _never_read)
    index = MediaIndex(MediaCache(tmp_path), began_ns=_later())
    assert index.holds("ag-math-a.svg")
    assert index.sizes("ag-math-a.svg") == (1.0, 2.0, 0.25)


def test_a_file_changed_since_is_read_and_judged_by_its_digest(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path)
    cache.put("ag-math-a.svg", b"<svg>a</svg>")
    cache.put("ag-math-b.svg", b"<svg>b</svg>")
    cache.save_index()
    (tmp_path / "ag-math-a.svg").write_bytes(b"<svg onload='x'>a</svg>")  # poisoned
    (tmp_path / "ag-math-b.svg").write_bytes(b"<svg>b</svg>")  # rewritten, same bytes
    index = MediaIndex(MediaCache(tmp_path), began_ns=_later())
    assert not index.holds("ag-math-a.svg")
    assert index.holds("ag-math-b.svg")
    index.save()  # the new identity of b is recorded


def test_a_file_written_just_before_the_build_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the file system's clock tick a second write could keep the times: read it."""
    cache = MediaCache(tmp_path)
    cache.put("ag-math-a.svg", b"<svg>a</svg>")
    cache.save_index()
    reads: list[str] = []
    digest = media_index._file_digest

    def counted(path: Path) -> str:
        reads.append(path.name)
        return digest(path)

    monkeypatch.setattr(media_index, "_file_digest", counted)
    assert MediaIndex(MediaCache(tmp_path)).holds("ag-math-a.svg")
    assert reads == ["ag-math-a.svg"]


def test_a_damaged_row_is_no_entry(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path)
    cache.put("ag-math-a.svg", b"<svg>a</svg>", (1.0,))
    cache.put("ag-math-b.svg", b"<svg>b</svg>", (2.0,))
    cache.save_index()
    assert cache.indexed() == ["ag-math-a.svg", "ag-math-b.svg"]
    junk = {b"ag-math-a.svg": b"junk", b"ag-math-b.svg": marshal.dumps((1, 2))}
    cache.store.write("media", recipe.code_fingerprint(), junk)
    index = MediaIndex(MediaCache(tmp_path))
    assert not index.holds("ag-math-a.svg") and not index.holds("ag-math-b.svg")


def test_a_warm_process_decodes_only_rows_it_has_not_seen(tmp_path: Path) -> None:
    """``ankigen watch``'s ``Decoded``: the same row bytes give the same entry, decoded once;
    a row that changed or is new is decoded, and a damaged one is still no entry."""
    decoded = Decoded()
    cache = MediaCache(tmp_path, decoded=decoded)
    cache.put("ag-math-a.svg", b"<svg>a</svg>", (1.0,))
    cache.save_index()
    first = MediaIndex(MediaCache(tmp_path, decoded=decoded))
    assert first.sizes("ag-math-a.svg") == (1.0,)
    known = decoded.of("media", recipe.code_fingerprint())
    (entry,) = (value for _, _, value in known.values())

    cache.put("ag-math-b.svg", b"<svg>b</svg>", (2.0,))
    cache.save_index()
    second = MediaIndex(MediaCache(tmp_path, decoded=decoded))
    assert second.sizes("ag-math-b.svg") == (2.0,)
    assert known[b"ag-math-a.svg"][2] is entry  # the same bytes: not decoded again

    junk = {b"ag-math-a.svg": b"junk"}
    cache.store.write("media", recipe.code_fingerprint(), junk)
    third = MediaIndex(MediaCache(tmp_path, decoded=decoded))
    assert third.sizes("ag-math-a.svg") == () and not third.holds("ag-math-a.svg")
    assert set(known) == {b"ag-math-b.svg"}  # only what the store holds now is kept
