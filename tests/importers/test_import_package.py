"""``ankigen import DECK.apkg`` for Anki's stock note types and one of the author's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.importers.package_support import (
    BASIC,
    CLOZE,
    PNG,
    REVERSED,
    VOCAB,
    note,
    write_package,
)
from tests.reliability.support import run_cli


@pytest.fixture
def package(tmp_path: Path) -> Path:
    notes = [
        note(
            BASIC, "What is <b>mitosis</b>?", "Cell division<br>into two", tags=("bio",), guid="g-1"
        ),
        note(REVERSED, "Haus", "house", tags=("de",), guid="g;2"),
        note(CLOZE, r"Energy \(E = {{c1::mc^2}}\)", "<i>Einstein</i>", guid="g3"),
        note(VOCAB, "chat", "cat", "Le chat dort.", guid="g4"),
        note(BASIC, 'A cell <img src="cell.png">', "<ul><li>one</li><li>two</li></ul>", guid="g5"),
    ]
    sub = [note(BASIC, "In a subdeck?", "Yes.", guid="g6")]
    return write_package(
        tmp_path / "bio.apkg",
        {"Biology": notes, "Biology::Genetics": sub},
        {"cell.png": PNG},
    )


def test_each_deck_becomes_a_content_file(package: Path, tmp_path: Path) -> None:
    out = tmp_path / "content"
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["biology.md", "cell.png", "genetics.md"]
    assert (out / "cell.png").read_bytes() == PNG
    text = (out / "biology.md").read_text("utf-8")
    assert text.startswith(
        '---\ndeck: "Biology"\nkey: "biology"\nclaims: off\nmath: mathjax\n---\n'
    )
    assert (
        "What is **mitosis**? ::: Cell division\\\ninto two\n"
        "<!-- id: what-is-mitosis; tags: bio; guid: g%2D1 -->" in text
    )
    assert "Haus ::: house\n<!-- id: haus; tags: de; guid: g%3B2 -->" in text
    assert "Energy $E = {{c1::mc^2}}$ ::: *Einstein*\n<!-- id: energy-e-mc-2; guid: g3 -->" in text
    assert "chat ::: cat\n" in text
    assert (
        "A cell ![](cell.png) :::\n\n- one\n- two\n<!-- id: a-cell-cell-png; guid: g5 -->" in text
    )
    assert "<!-- from: bio.apkg:1 -->" in text
    genetics = (out / "genetics.md").read_text("utf-8")
    assert 'deck: "Biology::Genetics"' in genetics and "guid: g6" in genetics


def test_what_cannot_be_carried_over_is_a_warning_at_the_note(
    package: Path, tmp_path: Path
) -> None:
    result = run_cli(["import", str(package), "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "not carried over" in line]
    assert warnings == [
        "bio.apkg:2: warning: not carried over: card types 'Card 2' of note type "
        "'Basic (and reversed card) (genanki)'",
        "bio.apkg:4: warning: not carried over: fields 'Example' of note type 'Vocabulary'",
    ]


def test_the_result_checks_and_builds_with_every_guid(package: Path, tmp_path: Path) -> None:
    from ankigen.importers.apkg import read_deck_file

    out = tmp_path / "content"
    assert run_cli(["import", str(package), "--out", str(out)]).exit_code == 0
    check = run_cli(["check", str(out)])
    assert check.exit_code == 0, check.output
    build = run_cli(["build", str(out), "--out", str(tmp_path / "build")])
    assert build.exit_code == 0, build.output
    guids = set()
    for deck in (tmp_path / "build").glob("*.apkg"):
        guids |= set(read_deck_file(deck).notes)
    assert guids == {"g-1", "g;2", "g3", "g4", "g5", "g6"}


def test_an_existing_content_file_is_never_overwritten(package: Path, tmp_path: Path) -> None:
    out = tmp_path / "content"
    out.mkdir()
    (out / "biology.md").write_text("mine", "utf-8")
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 2
    assert "already exists" in result.output
    assert (out / "biology.md").read_text("utf-8") == "mine"


def test_cloze_markers_in_a_basic_front_are_said_to_make_a_cloze(tmp_path: Path) -> None:
    package = write_package(
        tmp_path / "odd.apkg", {"Odd": [note(BASIC, "The {{c1::sun}} is a star", "Yes.")]}
    )
    out = tmp_path / "content"
    result = run_cli(["import", str(package), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "cloze markers in its front make it a cloze item" in result.stderr
    assert "The {{c1::sun}} is a star ::: Yes." in (out / "odd.md").read_text("utf-8")


def test_an_output_that_cannot_be_written_is_a_plain_error(package: Path, tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", "utf-8")
    result = run_cli(["import", str(package), "--out", str(blocked / "content")])
    assert result.exit_code == 1
    assert "Import failed:" in result.stderr and "Traceback" not in result.output
