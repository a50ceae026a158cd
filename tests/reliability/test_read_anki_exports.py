"""``ankigen diff`` reads packages Anki itself exported, not only its own: a
"support older Anki versions" export is read; a newer export (zstd-compressed,
with a stub collection beside it) is refused with a message saying what to do."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

anki_collection = pytest.importorskip("anki.collection")

if TYPE_CHECKING:
    from anki.collection import Collection

from ankigen.importers.apkg import UnreadableDeck, read_deck_file  # noqa: E402
from tests.anki_support import fresh_collection  # noqa: E402
from tests.reliability.release_support import import_release  # noqa: E402
from tests.reliability.support import GOOD_DECK, run_cli  # noqa: E402


def _export(col: Collection, target: Path, *, legacy: bool) -> Path:
    options = anki_collection.ExportAnkiPackageOptions(
        with_scheduling=False, with_deck_configs=False, with_media=True, legacy=legacy
    )
    col.export_anki_package(out_path=str(target), options=options, limit=None)
    return target


def test_anki_exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "good.md").write_text(GOOD_DECK, "utf-8")
    assert run_cli(["build", "--math", "mathjax"]).exit_code == 0
    built = read_deck_file(tmp_path / "build" / "good.apkg")
    with fresh_collection() as col:
        import_release(col, tmp_path / "build" / "good.apkg")
        legacy = _export(col, tmp_path / "legacy.apkg", legacy=True)
        newer = _export(col, tmp_path / "newer.apkg", legacy=False)

    exported = read_deck_file(legacy)
    assert set(exported.notes) == set(built.notes)
    (note,) = exported.notes.values()
    assert (note.fields, note.deck) == (built.notes[note.guid].fields, "Good deck")

    with pytest.raises(UnreadableDeck, match="'Support older Anki versions'"):
        read_deck_file(newer)
    assert run_cli(["diff", str(legacy), "build/good.apkg"]).exit_code == 0
