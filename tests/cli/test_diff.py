"""``ankigen diff`` and ``ankigen build --against`` through click's CliRunner:
the release-notes summary, the JSON form, and the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

V1 = """\
# Release

What stays? ::: The same answer. <!-- id: stays -->

What changes? ::: The old answer. <!-- id: changes -->

What goes? ::: Soon gone. <!-- id: goes -->
"""

V2 = """\
# Release

What stays? ::: The same answer. <!-- id: stays -->

What changes? ::: The new answer. <!-- id: changes -->

What is new? ::: A new card. <!-- id: new -->
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    return tmp_path


def build(project: Path, text: str, out: str, epoch: int, *extra: str) -> Result:
    (project / "content" / "release.md").write_text(text, "utf-8")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("SOURCE_DATE_EPOCH", str(epoch))
        return invoke("build", "--math", "mathjax", "--out", out, *extra)


def test_text_summary_counts_and_names_the_notes(project: Path) -> None:
    assert build(project, V1, "v1", 1_700_000_000).exit_code == 0
    assert build(project, V2, "v2", 1_700_003_600).exit_code == 0
    result = invoke("diff", "v1/release.apkg", "v2/release.apkg")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "v2/release.apkg over v1/release.apkg: 1 added, 1 updated, 1 unchanged, "
        "1 removed, 0 not applied"
    )
    assert "  added: What is new? (release.md#new)" in lines
    assert "  updated: What changes? (release.md#changes)" in lines
    assert "  removed: What goes? (release.md#goes)" in lines
    assert lines[-1].endswith(
        '"tag:ankigen::release::*" -"tag:ankigen::release::release-2023-11-14-231320"'
    )


def test_json_lists_every_note_by_outcome(project: Path) -> None:
    build(project, V1, "v1", 1_700_000_000)
    build(project, V2, "v2", 1_700_003_600)
    record = json.loads(
        invoke("diff", "v1/release.apkg", "v2/release.apkg", "--format", "json").stdout
    )
    assert record["counts"] == {
        "added": 1,
        "updated": 1,
        "unchanged": 1,
        "removed": 1,
        "not_applied": 0,
    }
    (updated,) = record["updated"]
    assert updated["first_field"] == "What changes?"
    assert updated["deck"] == "Release"
    assert updated["source"] == "release.md#changes"
    assert updated["id"] == "changes"  # as the Source field names it
    assert len(updated["guid"]) == 10


@pytest.mark.parametrize(
    ("source", "item_id"),
    [
        ("release.md#changes", "changes"),
        ("release.md#g-3f2a9c1b0e", None),  # an item without an id: its GUID's hash
        ("release.md#g-intro", "g-intro"),
        ("a note of another deck", None),
        ("", None),
    ],
)
def test_the_id_of_a_note_is_read_from_its_source_field(source: str, item_id: str | None) -> None:
    from ankigen.syntax.source_field import item_id as id_in_source

    assert id_in_source(source) == item_id


def test_an_edit_that_is_not_newer_fails_strict(project: Path) -> None:
    build(project, V1, "v1", 1_700_000_000)
    build(project, V2, "v2", 1_700_000_000)  # same time: Anki keeps the old notes
    assert invoke("diff", "v1/release.apkg", "v2/release.apkg").exit_code == 0
    result = invoke("diff", "v1/release.apkg", "v2/release.apkg", "--strict")
    assert result.exit_code == 1
    assert "1 not applied" in result.stdout
    assert "NOT APPLIED: What changes? (release.md#changes): changed but not newer" in result.stdout


def test_build_against_prints_the_summary_with_ids(project: Path) -> None:
    build(project, V1, "v1", 1_700_000_000)
    result = build(project, V2, "v2", 1_700_003_600, "--against", "v1/release.apkg")
    assert result.exit_code == 0, result.output
    assert "  updated: What changes? (release.md#changes)" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("Built 1 deck")


def test_build_against_a_folder_of_releases(project: Path) -> None:
    build(project, V1, "v1", 1_700_000_000)
    result = build(project, V2, "v2", 1_700_003_600, "--against", "v1")
    assert "1 added, 1 updated, 1 unchanged, 1 removed, 0 not applied" in result.stdout
    new_deck = build(project, V1, "v3", 1_700_007_200, "--against", "content")
    assert "3 added, 0 updated" in new_deck.stdout  # no old release of it: all new


def test_strict_build_against_refuses_an_edit_that_would_not_arrive(project: Path) -> None:
    build(project, V1, "v1", 1_700_000_000)
    loose = build(project, V2, "v2", 1_700_000_000, "--against", "v1/release.apkg")
    assert loose.exit_code == 0
    assert "content/release.md:5:1: warning: this note changed but is not newer" in loose.stderr
    strict = build(project, V2, "v3", 1_700_000_000, "--against", "v1/release.apkg", "--strict")
    assert strict.exit_code == 1
    assert not (project / "v3" / "release.apkg").exists()


def test_unreadable_package_is_a_file_error(project: Path) -> None:
    (project / "junk.apkg").write_text("not a zip", "utf-8")
    result = invoke("diff", "junk.apkg", "junk.apkg")
    assert result.exit_code == 1
    assert "junk.apkg: cannot read" in result.output
