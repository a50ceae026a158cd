"""Decks from anyone, given to ``ankigen diff`` and ``build --against``: refused as a file error.

A zip bomb is refused within its budget (nothing like its full size is
written to the temporary folder); JSON nested too deeply, a non-finite number
and a collection whose queries never end are refused too; each with exit 1
and a message naming the file, never a traceback or a hang.
"""

from __future__ import annotations

import sqlite3
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ankigen.importers import apkg
from tests.reliability.support import GOOD_DECK, run_cli


@pytest.fixture
def good(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real deck built by ankigen, in a project that is the current folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    result = run_cli(["build", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    return tmp_path / "build" / "deck.apkg"


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The temporary folder ankigen extracts into, watched for what is left in it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == [], "the extracted collection was left behind"


def rewritten(good: Path, target: Path, *statements: str) -> Path:
    """A copy of ``good`` whose collection has had ``statements`` run on it."""
    database = target.with_suffix(".anki2")
    with zipfile.ZipFile(good) as archive:
        database.write_bytes(archive.read("collection.anki2"))
        others = {n: archive.read(n) for n in archive.namelist() if n != "collection.anki2"}
    connection = sqlite3.connect(database)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(database, "collection.anki2")
        for name, data in others.items():
            archive.writestr(name, data)
    return target


def refused(old: Path, new: Path) -> str:
    """Run ``diff`` on a hostile deck: exit 1, a plain message; the message."""
    result = run_cli(["diff", str(old), str(new)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result
    assert "Traceback" not in result.output
    assert result.exit_code == 1, result.output
    return result.stderr


def test_a_zip_bomb_is_refused_within_its_budget(good: Path, tmp_path: Path, scratch: Path) -> None:
    bomb = tmp_path / "bomb.apkg"
    zeros = bytes(1 << 20)
    with (
        zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("collection.anki2", "w", force_zip64=True) as member,
    ):
        for _ in range(apkg.RATIO_FROM // len(zeros) * 4):  # 128 MiB of zeros
            member.write(zeros)
    assert bomb.stat().st_size < 1 << 20  # small on disk
    message = refused(good, bomb)
    assert f"{bomb}: its collection decompresses to more than 32 MiB" in message


def test_a_collection_larger_than_it_declares_is_refused(
    good: Path, tmp_path: Path, scratch: Path
) -> None:
    """The sizes in the archive's header are not trusted: the bytes are counted."""
    lying = tmp_path / "lying.apkg"
    with zipfile.ZipFile(good) as archive:
        data = archive.read("collection.anki2")
    with zipfile.ZipFile(lying, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("collection.anki2", data + bytes(40 << 20))
    # Patch the declared size in the local and central headers down to the real one.
    raw = bytearray(lying.read_bytes())
    true_size = (len(data) + (40 << 20)).to_bytes(4, "little")
    raw = raw.replace(true_size, len(data).to_bytes(4, "little"))
    lying.write_bytes(bytes(raw))
    message = refused(good, lying)
    assert f"{lying}: " in message


def test_json_too_long_is_refused(
    good: Path, tmp_path: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each parsed number costs far more memory than its text: the length is capped."""
    monkeypatch.setattr(apkg, "MAX_JSON_CHARS", 1 << 20)  # 32 MiB in use; 1 MiB here
    flat = "[" + "0," * (1 << 20) + "0]"
    hostile = rewritten(good, tmp_path / "long.apkg", f"update col set decks = '{flat}'")
    message = refused(good, hostile)
    assert "its decks are more than 1 MiB of JSON" in message


def test_json_nested_too_deeply_is_refused(good: Path, tmp_path: Path, scratch: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    hostile = rewritten(good, tmp_path / "deep.apkg", f"update col set models = '{deep}'")
    message = refused(good, hostile)
    assert "its models nest more than 64 deep" in message


@pytest.mark.parametrize(
    "statement",
    [
        "update notes set mod = 9e999",
        "update notes set mid = -9e999",
        "update col set models = replace(models, '\"type\": 0', '\"type\": NaN')",
        'update col set decks = replace(decks, \'"name"\', \'"x": 1e999, "name"\')',
    ],
    ids=["infinite-mtime", "infinite-type", "nan-in-json", "overflowing-json-number"],
)
def test_non_finite_numbers_are_refused(
    good: Path, tmp_path: Path, scratch: Path, statement: str
) -> None:
    hostile = rewritten(good, tmp_path / "nan.apkg", statement)
    message = refused(good, hostile)
    assert f"{hostile}: not an Anki package:" in message


def test_a_collection_whose_query_never_ends_is_stopped(
    good: Path, tmp_path: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(apkg, "QUERY_SECONDS", 0.5)
    never = (
        "create view notes as with recursive n(x) as (select 1 union all select x + 1 from n) "
        "select x as id, 'g' as guid, 1 as mid, 1 as mod, '' as tags, '' as flds "
        "from n where x < 0"
    )
    hostile = rewritten(good, tmp_path / "slow.apkg", "drop table notes", never)
    message = refused(good, hostile)
    assert f"{hostile}: reading its collection took more than 0.5 s" in message


def test_build_against_a_hostile_deck_is_a_file_error_and_writes_nothing(
    good: Path, tmp_path: Path, scratch: Path
) -> None:
    deep = "{" + '"a":{' * 1000 + "}" * 1001
    hostile = rewritten(good, tmp_path / "old.apkg", f"update col set decks = '{deep}'")
    before = good.read_bytes()
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK + "\nNew? ::: Yes.\n", "utf-8")
    result = run_cli(["build", "--math", "mathjax", "--against", str(hostile)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "its decks nest more than 64 deep" in result.stderr
    assert good.read_bytes() == before
