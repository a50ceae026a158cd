"""A poisoned cache never reaches a deck: each row of the store is sealed with this user's key.

The attacker here can write every file of ``OUT/.cache`` (the store too) but
cannot read the user's cache key, kept outside the folder (as with a CI cache
restored from another branch, a cache folder in an archive, or a shared
folder): each test rewrites the rows of one cache as such an attacker would,
resealing them with a key of their own, or replaces the media files, then
makes an unrelated edit and builds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from ankigen.build import stamp
from ankigen.cache import STORE_NAME, CacheTuning, Sealer
from ankigen.check import proven
from ankigen.cli.options import resolve
from ankigen.commands.build import BuildResult, run
from ankigen.package import media_pack
from ankigen.package.zip_writer import deflate
from ankigen.parse import parse_text
from ankigen.render import _media_index as media_index
from ankigen.render import _svg_store as svgs
from ankigen.render._svg_store import svg_name

ATTACKER = Sealer(b"attacker's own key, not the user's"[:32])
POISON = "POISON"
HOSTILE_SVG = f'<svg xmlns="http://www.w3.org/2000/svg" onload="{POISON}()"/>'.encode()
DECK = """# Poison

## Animals

Zebras have how many legs? ::: Four, and $x^2 + 1$ is drawn.

## Pictures

A picture ::: ![dot](dot.svg)

What does the figure show? ::: ![bars](figure:bars) Bars.

How many layers? ::: 128 layers.

```check
assert `128` == 2^7
```
"""
DOT = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle r="2"/></svg>'
FIGURE = "def draw(fig, formulas):\n    fig.add_subplot().bar([1, 2], [1, 2])\n"


#: The SVG store keeps a file changed just now too (as in tests/perf/test_svg_store.py).
SETTLED = CacheTuning(settled_ns=-(10**12))


def build() -> BuildResult:
    """``ankigen build --math image`` in the project (the working folder)."""
    return run(dataclasses.replace(resolve((), math="image"), cache_tuning=SETTLED))


def _messages(result: BuildResult) -> str:
    return "\n".join(d.format() for d in result.diagnostics)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "content" / "deck.md").write_text(DECK, "utf-8")
    (tmp_path / "content" / "dot.svg").write_text(DOT, "utf-8")
    (tmp_path / "figures" / "bars.py").write_text(FIGURE, "utf-8")
    first = build()
    assert not first.failed, _messages(first)
    return tmp_path


def _cache(project: Path) -> Path:
    return project / "build" / ".cache"


#: Caches whose values are one row per deck (``cache.memo``): each value is changed.
MEMOS = {"notes", "sections", "checks", "svgs", "pack"}


def _forge_rows(
    cache: Path,
    kind: str,
    change: Callable[[bytes], bytes],
    added: Callable[[dict[bytes, bytes]], None] = lambda values: None,
) -> None:
    """Every value of ``kind`` in the store changed (and ``added`` to a memo's values),
    sealed with the attacker's key."""
    with sqlite3.connect(cache / STORE_NAME) as db:
        rows = db.execute("SELECT scope, key, value FROM records WHERE kind=?", (kind,)).fetchall()
        assert rows
        for scope, key, value in rows:
            if kind in MEMOS:
                values = {k: change(v) for k, v in marshal.loads(value).items()}
                added(values)
                forged = marshal.dumps(values)
            else:
                forged = change(value)
            seal_ = ATTACKER.mac(kind.encode(), scope.encode(), key, forged)
            db.execute(
                "UPDATE records SET value=?, seal=? WHERE kind=? AND scope=? AND key=?",
                (forged, seal_, kind, scope, key),
            )
    db.close()


def _rebuild_after_an_unrelated_edit(project: Path) -> BuildResult:
    with (project / "content" / "deck.md").open("a", encoding="utf-8") as deck:
        deck.write("\nAn unrelated new item? ::: Yes.\n")
    result = build()
    assert not result.failed, _messages(result)
    assert result.written
    return result


def _deck_text(project: Path) -> bytes:
    with zipfile.ZipFile(project / "build" / "deck.apkg") as archive:
        return b"".join(archive.read(name) for name in archive.namelist())


def _poison_notes(cache: Path) -> None:
    def poisoned(value: bytes) -> bytes:
        front, back, media = marshal.loads(value)
        return marshal.dumps((f'{front}<img src="x" onerror="{POISON}()">', back, media))

    _forge_rows(cache, "notes", poisoned)


def _poison_sections(cache: Path) -> None:
    _forge_rows(cache, "sections", lambda value: value.replace(b"Zebras", POISON.encode()))


def _poison_svgs(cache: Path) -> None:
    def poisoned(value: bytes) -> bytes:
        stored = svgs._CODEC.loads(value)
        hostile = dataclasses.replace(stored, name=svg_name(HOSTILE_SVG), data=HOSTILE_SVG)
        return svgs._CODEC.dumps(hostile)

    _forge_rows(cache, "svgs", poisoned)


def _poison_media_pack(cache: Path) -> None:
    def poisoned(value: bytes) -> bytes:
        size = media_pack._CODEC.loads(value).size
        hostile = HOSTILE_SVG.ljust(size, b" ")[:size] if size >= len(HOSTILE_SVG) else HOSTILE_SVG
        return media_pack._CODEC.dumps(deflate(hostile))

    _forge_rows(cache, "pack", poisoned)


def _poison_media_files(cache: Path, *, reindex: bool) -> None:
    """Formula images and the figure in the cache replaced; with ``reindex``, the index too."""
    replaced = [p for p in cache.iterdir() if p.name.startswith(("ag-math-", "ag-fig-"))]
    assert replaced
    for path in replaced:
        path.write_bytes(HOSTILE_SVG)
    if reindex:

        def reindexed(value: bytes) -> bytes:
            entry = media_index._CODEC.loads(value)
            digest = hashlib.sha256(HOSTILE_SVG).hexdigest()
            return media_index._CODEC.dumps(dataclasses.replace(entry, digest=digest))

        _forge_rows(cache, "media", reindexed)


@pytest.mark.parametrize(
    "poison",
    [
        "notes",
        "sections",
        "svgs",
        "media.pack",
        "media files",
        "media files and index",
    ],
)
def test_a_poisoned_cache_never_reaches_the_deck(project: Path, poison: str) -> None:
    cache = _cache(project)
    if poison == "notes":
        _poison_notes(cache)
    elif poison == "sections":
        _poison_sections(cache)
    elif poison == "svgs":
        _poison_svgs(cache)
    elif poison == "media.pack":
        _poison_media_pack(cache)
    else:
        _poison_media_files(cache, reindex=poison == "media files and index")
    _rebuild_after_an_unrelated_edit(project)
    shipped = _deck_text(project)
    assert POISON.encode() not in shipped
    assert b"Zebras" in shipped


def test_a_forged_passing_check_does_not_hide_a_failing_one(project: Path) -> None:
    deck_file = project / "content" / "deck.md"
    failing = deck_file.read_text("utf-8").replace("2^7", "2^8")
    deck_file.write_text(failing, "utf-8")
    deck = parse_text(failing, deck_file, project / "content", "content/deck.md").deck
    assert deck is not None
    passed = proven._CODEC.dumps(proven.ItemRun((), 1, 0))  # "ran one check, none failed"

    def failing_passes(values: dict[bytes, bytes]) -> None:
        values.update(dict.fromkeys(proven._keys(deck, 5.0).values(), passed))

    # The values of the passing run, and one for the failing item too.
    _forge_rows(_cache(project), "checks", lambda _: passed, failing_passes)
    result = build()
    assert result.failed
    assert "2^8" in _messages(result)


def test_a_forged_stamp_is_no_stamp(project: Path) -> None:
    def silenced(value: bytes) -> bytes:
        record = stamp._CODEC.loads(value)
        assert record.warnings  # the unverified claim $x^2 + 1$
        return stamp._CODEC.dumps(dataclasses.replace(record, warnings=()))

    _forge_rows(_cache(project), "stamp", silenced)
    result = build()
    assert not result.failed
    assert result.written and "unverified claim" in _messages(result)
