"""A reveal item turned into a cloze under the same id reaches learners, in real Anki.

A cloze item with an id mixes its kind into its GUID (docs/format.md 8.2),
so the cloze is a new note: Anki adds it with the desktop dialog's default
options and with "merge note types" alike, and keeps the old reveal note,
which ``ankigen diff`` reports as removed. Both releases are built by the
build command of the workflow ``ankigen init`` writes: the first against an
empty folder (no earlier release to download), the second ``--against`` the
first, which passes. Every reveal note keeps the GUID of earlier versions.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import genanki
import pytest
import yaml

from ankigen.commands.init import project_files
from ankigen.commands.install_source import install_line

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
