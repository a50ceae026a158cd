"""A reveal item turned into a cloze under the same id reaches learners, in real Anki.

A cloze item with an id mixes its kind into its GUID (docs/format.md 8.2),
so the cloze is a new note: Anki adds it with the desktop dialog's default
options and with "merge note types" alike, and keeps the old reveal note,
which ``ankigen diff`` reports as removed. Both releases are built by the
build command of the workflow ``ankigen init`` writes: the first against an
empty folder (no earlier release to download), the second ``--against`` the
first, which passes. Every reveal note keeps the GUID of earlier versions, and a
cloze note released before cloze GUIDs held their kind keeps its GUID in a
release built ``--against`` that one.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sqlite3
import zipfile
from pathlib import Path

import genanki
import pytest
import yaml

from ankigen.build.install_source import install_line
from ankigen.commands.init import project_files

anki_collection = pytest.importorskip("anki.collection")

from tests.anki_support import fresh_collection  # noqa: E402
from tests.reliability.release_support import import_release  # noqa: E402
from tests.reliability.support import run_cli  # noqa: E402

REVEAL = "# Kinds\n\nWhat joins sister chromatids? ::: The centromere. <!-- id: joint -->\n"
CLOZE = "# Kinds\n\nThe {{c1::centromere}} joins sister chromatids. <!-- id: joint -->\n"


def _build(project: Path, text: str, out: str, *extra: str) -> tuple[Path, str, int]:
    (project / "content" / "kinds.md").write_text(text, "utf-8")
    result = run_cli(["build", "content", "--out", out, "--math", "mathjax", *extra])
    return project / out / "kinds.apkg", result.output, result.exit_code


def _workflow_build(project: Path, text: str, release: str) -> Path:
    """Build as the ``init`` workflow's build step does, and keep the deck as ``release``."""
    files = project_files(project / "new", install_line(None, "0.1.0"))
    workflow = yaml.safe_load(files[project / "new" / ".github" / "workflows" / "decks.yml"])
    (command,) = (
        s["run"] for s in workflow["jobs"]["decks"]["steps"] if "--against" in s.get("run", "")
    )
    program, *args = shlex.split(command)
    assert program == "ankigen"
    (project / "content" / "kinds.md").write_text(text, "utf-8")
    result = run_cli(args)
    assert result.exit_code == 0, result.output
    kept = project / release / "kinds.apkg"
    kept.parent.mkdir()
    shutil.copy(project / "build" / "kinds.apkg", kept)
    return kept


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("merge_note_types", [False, True], ids=["default", "merge-note-types"])
def test_a_reveal_turned_cloze_under_one_id_reaches_the_learner(
    project: Path, monkeypatch: pytest.MonkeyPatch, merge_note_types: bool
) -> None:
    (project / "previous").mkdir()  # the first release: nothing to download
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    old = _workflow_build(project, REVEAL, "v1")
    shutil.copy(old, project / "previous" / "kinds.apkg")  # gh release download
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700003600")
    new = _workflow_build(project, CLOZE, "v2")

    result = run_cli(["diff", str(old), str(new), "--format", "json", "--strict"])
    assert result.exit_code == 0, result.output
    predicted = json.loads(result.stdout)
    assert predicted["counts"] == {
        "added": 1,
        "updated": 0,
        "unchanged": 0,
        "removed": 1,
        "not_applied": 0,
    }

    with fresh_collection() as col:
        import_release(col, old, merge_note_types=merge_note_types)
        log = import_release(col, new, merge_note_types=merge_note_types)
        assert (len(log.new), len(log.conflicting), len(log.updated)) == (1, 0, 0)
        texts = sorted(col.get_note(nid).fields[0] for nid in col.find_notes(""))
        assert texts == [
            "The {{c1::centromere}} joins sister chromatids.",
            "What joins sister chromatids?",
        ], "the learner has the cloze, and keeps the old reveal note"
        (cloze,) = col.find_cards('"note:ankigen Cloze"')
        assert "[...]" in col.get_card(cloze).question()


def test_a_reveal_note_keeps_the_guid_of_earlier_versions(project: Path) -> None:
    old, _, _ = _build(project, REVEAL, "v1")
    run = run_cli(["diff", str(old), str(old), "--format", "json"])
    (note,) = json.loads(run.stdout)["unchanged"]
    assert note["guid"] == genanki.guid_for("kinds", "id", "joint")


def _as_released_before_the_rule(apkg: Path, out: Path, guid: str, earlier: str) -> Path:
    """``apkg`` as a release from before cloze GUIDs held their kind: one note's GUID rewritten."""
    out.parent.mkdir(parents=True)
    with zipfile.ZipFile(apkg) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "collection.anki2":
                collection = out.parent / "collection.anki2"
                collection.write_bytes(data)
                with sqlite3.connect(collection) as db:
                    db.execute("update notes set guid = ? where guid = ?", (earlier, guid))
                data = collection.read_bytes()
                collection.unlink()
            target.writestr(info, data)
    return out


@pytest.mark.parametrize("merge_note_types", [False, True], ids=["default", "merge-note-types"])
def test_a_cloze_note_released_before_the_rule_keeps_its_guid(
    project: Path, monkeypatch: pytest.MonkeyPatch, merge_note_types: bool
) -> None:
    """Built --against a release whose cloze note has the id-only GUID, the note keeps it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    built, _, _ = _build(project, CLOZE, "v1")
    listed = json.loads(run_cli(["diff", str(built), str(built), "--format", "json"]).stdout)
    guid = listed["unchanged"][0]["guid"]
    earlier = genanki.guid_for("kinds", "id", "joint")
    assert guid != earlier
    old = _as_released_before_the_rule(built, project / "old" / "kinds.apkg", guid, earlier)

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700003600")
    edited = CLOZE.replace("joins sister", "holds together sister")
    new, output, status = _build(project, edited, "v2", "--against", str(old))
    assert status == 0, output
    predicted = json.loads(run_cli(["diff", str(old), str(new), "--format", "json"]).stdout)
    assert predicted["counts"] == {
        "added": 0,
        "updated": 1,
        "unchanged": 0,
        "removed": 0,
        "not_applied": 0,
    }
    with fresh_collection() as col:
        import_release(col, old, merge_note_types=merge_note_types)
        log = import_release(col, new, merge_note_types=merge_note_types)
        assert (len(log.new), len(log.updated), len(log.conflicting)) == (0, 1, 0)
        (nid,) = col.find_notes("")
        assert "holds together" in col.get_note(nid).fields[0]
