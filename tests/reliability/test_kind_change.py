"""Why a reveal item may not become a cloze under the same id, in real Anki.

Built without ``--against``, such a release keeps the note's GUID with
another note type: with the desktop dialog's options Anki skips the note
("conflicting"), and with "merge note types" it refuses the whole deck.
``ankigen diff`` predicts the skipped edit (``not_applied``, exit 1 with
``--strict``), and ``ankigen build --against`` refuses the release with a
FILE:LINE:COL error that says to give the item a new id.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

anki_collection = pytest.importorskip("anki.collection")
anki_errors = pytest.importorskip("anki.errors")

from tests.anki_support import fresh_collection  # noqa: E402
from tests.reliability.release_support import import_release  # noqa: E402
from tests.reliability.support import run_cli  # noqa: E402

REVEAL = "# Kinds\n\nWhat joins sister chromatids? ::: The centromere. <!-- id: joint -->\n"
CLOZE = "# Kinds\n\nThe {{c1::centromere}} joins sister chromatids. <!-- id: joint -->\n"


def _build(project: Path, text: str, out: str, *extra: str) -> tuple[Path, str, int]:
    (project / "content" / "kinds.md").write_text(text, "utf-8")
    result = run_cli(["build", "content", "--out", out, "--math", "mathjax", *extra])
    return project / out / "kinds.apkg", result.output, result.exit_code


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_kind_change_under_one_id_is_predicted_and_refused(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    old, _, _ = _build(project, REVEAL, "v1")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700003600")
    new, _, status = _build(project, CLOZE, "v2")
    assert status == 0

    result = run_cli(["diff", str(old), str(new), "--format", "json", "--strict"])
    assert result.exit_code == 1
    predicted = json.loads(result.stdout)
    assert predicted["counts"]["not_applied"] == 1
    assert predicted["not_applied"][0]["cause"] == "type_changed"

    with fresh_collection() as col:
        import_release(col, old)
        log = import_release(col, new)
        assert (len(log.conflicting), len(log.updated), len(log.new)) == (1, 0, 0)
        (nid,) = col.find_notes("")
        assert "centromere" in col.get_note(nid).fields[1], "Anki kept the reveal note"

    with fresh_collection() as col:
        import_release(col, old, merge_note_types=True)
        with pytest.raises(anki_errors.AnkiException):
            import_release(col, new, merge_note_types=True)

    refused, output, status = _build(project, CLOZE, "v3", "--against", str(old))
    assert status == 1
    assert (
        "content/kinds.md:3:1: this item changed between reveal and cloze under the same " in output
    )
    assert "id 'joint'" in output and "give the item a new id" in output
    assert not refused.exists()
