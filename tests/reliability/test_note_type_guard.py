"""The note type schema learners' collections depend on is pinned, and a change is
reported: ``ankigen diff`` lists every note of a changed note type as not applied,
which is what real Anki does with it."""

from __future__ import annotations

from pathlib import Path

import genanki
import pytest

import ankigen.package
from ankigen.commands.diff import SCHEMA_CHANGED, diff_files
from ankigen.package.note_types import CLOZE_MODEL_ID, REVEAL_MODEL_ID, cloze_model, reveal_model
from tests.reliability.support import run_cli

DECK = (
    "# Guard\n\nWhat is pinned? ::: The schema. <!-- id: pinned -->\n\n"
    "The {{c1::note type}} is pinned too. <!-- id: cloze -->\n"
)


def _schema(model: genanki.Model) -> tuple[object, ...]:
    return (
        model.model_id,
        model.name,
        model.model_type,
        [f["name"] for f in model.fields],
        [t["name"] for t in model.templates],
    )


def test_note_type_ids_names_fields_and_templates_never_change() -> None:
    # Changing any of these makes every learner's re-import skip these notes or
    # copy the note type. If you must, read the README's identity section first.
    assert _schema(reveal_model()) == (
        1_702_438_001,
        "ankigen Reveal",
        genanki.Model.FRONT_BACK,
        ["Question", "Answer", "Source"],
        ["Reveal"],
    )
    assert _schema(cloze_model()) == (
        1_702_438_002,
        "ankigen Cloze",
        genanki.Model.CLOZE,
        ["Text", "Extra", "Source"],
        ["Cloze"],
    )
    assert (REVEAL_MODEL_ID, CLOZE_MODEL_ID) == (1_702_438_001, 1_702_438_002)


def _renamed_reveal() -> genanki.Model:
    model = reveal_model()
    fields = [{"name": "Prompt"}, {"name": "Answer"}, {"name": "Source"}]
    return genanki.Model(
        model.model_id,
        model.name,
        fields=fields,
        templates=[{**model.templates[0], "qfmt": "{{Prompt}}", "afmt": "{{Prompt}}{{Answer}}"}],
        css=model.css,
    )


def _build(project: Path, out: str) -> Path:
    result = run_cli(["build", "content", "--out", out, "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    return project / out / "guard.apkg"


def test_a_schema_change_is_not_applied_for_every_note_of_that_type(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    anki_support = pytest.importorskip("tests.anki_support")
    from tests.reliability.release_support import import_release

    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "guard.md").write_text(DECK, "utf-8")
    monkeypatch.chdir(tmp_path)
    old = _build(tmp_path, "v1")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700003600")
    monkeypatch.setattr(ankigen.package, "reveal_model", _renamed_reveal)
    new = _build(tmp_path, "v2")

    diff = diff_files(old, new)
    assert [n.first_field for n in diff.not_applied] == ["What is pinned?"]
    assert {n.cause for n in diff.not_applied} == {SCHEMA_CHANGED}
    assert [n.first_field for n in diff.unchanged] == ["The {{c1::note type}} is pinned too."]

    with anki_support.fresh_collection() as col:
        import_release(col, old)
        log = import_release(col, new)
        fields = {col.get_note(nid).guid: col.get_note(nid).fields for nid in col.find_notes("")}
        col_types = sorted(m["name"] for m in col.models.all())
    pinned = diff.not_applied[0].guid
    # Anki skips that note as conflicting and imports a copy of the note type.
    assert len(log.conflicting) == len(diff.not_applied) == 1
    assert "ankigen Reveal+" in col_types
    assert fields[pinned][0] == "What is pinned?"  # the learner's note kept its old fields
