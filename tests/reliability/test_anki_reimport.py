"""Re-imports update in place in real Anki (the official ``anki`` package).

A deck is built at SOURCE_DATE_EPOCH=T1 and imported into a fresh collection
with the options Anki's desktop import dialog starts with (as
``../shared/tools/verify_apkg.py`` does). Answers, a question with an id and a
cloze's Extra are edited; the deck is rebuilt at T2 > T1 and imported again:
the edited notes are updated, nothing is added or duplicated, no note type
copy appears, and the card count is unchanged. Editing a question WITHOUT an
id makes a new note: the documented price of not giving an item an id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pytest

anki_collection = pytest.importorskip("anki.collection")
ImportAnkiPackageRequest = anki_collection.ImportAnkiPackageRequest

if TYPE_CHECKING:
    from anki.collection import Collection
    from anki.import_export_pb2 import ImportResponse

from tests.reliability.support import run_cli  # noqa: E402

T1 = 1_700_000_000
T2 = T1 + 3600

DECK = """\
---
deck: Reimport
key: reimport
---

# Reimport

## Basics

Why do we synchronize every step? ::: To keep all copies identical. <!-- id: why-sync -->

What does all-reduce do? ::: It sums a tensor across devices. <!-- id: all-reduce -->

Which question has no id? ::: This one, and its answer can change.

{{c1::Data parallelism}} copies the model to every device. ::: Extra words. <!-- id: dp -->

A reveal with math: what is $S$ on one device? ::: $S = 1$. <!-- id: s-one -->
"""

EDITS = [
    ("To keep all copies identical.", "To keep every replica's weights the same."),
    ("Why do we synchronize every step?", "Why must replicas synchronize each step?"),
    ("This one, and its answer can change.", "This one; the answer was edited."),
    ("Extra words.", "Edited extra words."),
    ("$S = 1$.", "$S = 1$, the baseline."),
]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "reimport.md").write_text(DECK, "utf-8")
    return tmp_path


@pytest.fixture()
def collection(tmp_path: Path) -> Iterator[Collection]:
    (tmp_path / "anki").mkdir()
    col = anki_collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def _build(project: Path, out: str, epoch: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    result = run_cli(["build", "content", "--out", out, "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    return project / out / "reimport.apkg"


def _import(col: Collection, apkg: Path) -> ImportResponse.Log:
    """Import like the desktop app: Collection.import_anki_package with its presets."""
    options = col._backend.get_import_anki_package_presets()
    response = col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(apkg), options=options)
    )
    col.models._clear_cache()
    return response.log


class _State(TypedDict):
    """What a learner's collection holds: each note's fields by GUID, cards, note types."""

    notes: dict[str, list[str]]
    cards: int
    notetypes: list[str]


def _state(col: Collection) -> _State:
    assert col.db is not None, "the collection is open"
    notes = {
        str(guid): list(col.get_note(nid).fields)
        for nid, guid in col.db.all("select id, guid from notes")
    }
    return {
        "notes": notes,
        "cards": int(col.db.scalar("select count() from cards")),
        "notetypes": sorted(str(m["name"]) for m in col.models.all()),
    }


def _edit(project: Path, edits: list[tuple[str, str]]) -> None:
    path = project / "content" / "reimport.md"
    text = path.read_text("utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, "utf-8")


def test_edited_deck_updates_in_place(
    project: Path, collection: Collection, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _import(collection, _build(project, "out1", T1, monkeypatch))
    assert (len(first.new), len(first.updated), len(first.duplicate)) == (5, 0, 0)
    before = _state(collection)
    assert any(name.startswith("ankigen Reveal") for name in before["notetypes"])

    _edit(project, EDITS)
    second = _import(collection, _build(project, "out2", T2, monkeypatch))
    after = _state(collection)

    assert len(second.new) == 0, "an edit made a new note instead of updating"
    assert len(second.conflicting) == 0
    assert len(second.updated) == 5
    assert after["notetypes"] == before["notetypes"], "Anki made a copy of a note type"
    assert after["cards"] == before["cards"]
    assert set(after["notes"]) == set(before["notes"])
    all_fields = "\n".join("\n".join(f) for f in after["notes"].values())
    # a formula and its trailing comma share a no-wrap span; compare the text
    all_fields = re.sub(r'<span class="ag-nowrap">(.*?)</span>', r"\1", all_fields)
    for old, new in EDITS:
        assert new.replace("$S = 1$", r"\(S = 1\)") in all_fields
        assert old.replace("$S = 1$", r"\(S = 1\)") not in all_fields


def test_unchanged_rebuild_changes_nothing(
    project: Path, collection: Collection, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(collection, _build(project, "out1", T1, monkeypatch))
    before = _state(collection)
    log = _import(collection, _build(project, "out2", T1, monkeypatch))
    assert (len(log.new), len(log.updated), len(log.conflicting)) == (0, 0, 0)
    assert _state(collection) == before


def test_edited_question_without_id_is_a_new_note(
    project: Path, collection: Collection, monkeypatch: pytest.MonkeyPatch
) -> None:
    _import(collection, _build(project, "out1", T1, monkeypatch))
    before = _state(collection)
    _edit(project, [("Which question has no id?", "Which question has no id at all?")])
    log = _import(collection, _build(project, "out2", T2, monkeypatch))
    after = _state(collection)
    assert len(log.new) == 1
    assert len(log.conflicting) == 0
    assert after["notetypes"] == before["notetypes"]
    assert len(after["notes"]) == len(before["notes"]) + 1
    assert after["cards"] == before["cards"] + 1
