"""``ankigen import --from FORMAT``: one small source per format, written for these tests.

Each source imports into the content files in ``fixtures/<case>.golden`` (with
the warnings, at the source's lines), which check and build; ``--from auto``
guesses each format and says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ankigen.importers.apkg import read_deck_file
from tests.anki_support import fresh_collection, import_deck
from tests.reliability.support import run_cli

FIXTURES = Path(__file__).parent / "fixtures"
CASES = {
    "ankdown": "ankdown/Optics",
    "hashcards": "hashcards/chemistry.md",
    "obsidian-to-anki": "obsidian/biology.md",
    "mdanki": "mdanki/history.md",
    "crowdanki": "crowdanki/Capitals",
}


def imported(source_format: str, out: Path) -> str:
    """The warnings and every written content file, as one text to compare."""
    result = run_cli(["import", "--from", source_format, CASES[source_format], "--out", str(out)])
    assert result.exit_code == 0, result.output
    # The written files' own warnings name them under ``out``, a temporary folder.
    stderr = result.stderr.replace(str(out), "OUT")
    parts = [line for line in stderr.splitlines() if "warning" in line]
    for path in sorted(out.glob("*.md")):
        parts += [f"==> {path.name} <==", path.read_text("utf-8")]
    return "\n".join(parts) + "\n"


@pytest.mark.parametrize("source_format", sorted(CASES))
def test_a_source_imports_as_written_in_its_golden_file(
    source_format: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    actual = imported(source_format, tmp_path / "out")
    golden = FIXTURES / f"{source_format}.golden"
    assert actual == golden.read_text("utf-8")


#: The items each fixture holds on purpose that the build must leave out (format 19).
BROKEN = {"ankdown": "\\lensformula is not a command ankigen draws"}


def built(source_format: str, tmp_path: Path) -> tuple[int, list[Path], list[str]]:
    """Import one fixture and build it with ``--skip-broken``: items, decks, left-out lines."""
    out = tmp_path / source_format
    imported(source_format, out)
    decks_folder = tmp_path / "build" / source_format
    build = run_cli(["build", str(out), "--out", str(decks_folder), "--skip-broken"])
    assert build.exit_code == (1 if source_format in BROKEN else 0), build.output
    left_out = [line for line in build.stderr.splitlines() if ": left out: " in line]
    items = sum(p.read_text("utf-8").count("<!-- id: ") for p in out.glob("*.md"))
    decks = sorted(decks_folder.glob("*.apkg"))
    return items, decks, left_out


def test_every_source_builds_with_skip_broken_and_its_items_become_notes_in_anki(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: at least 95% of the imported items become notes in real Anki."""
    monkeypatch.chdir(FIXTURES)
    all_items = all_notes = 0
    with fresh_collection() as collection:
        for source_format in sorted(CASES):
            items, decks, left_out = built(source_format, tmp_path)
            broken = BROKEN.get(source_format)
            assert len(left_out) == (1 if broken else 0), left_out
            assert broken is None or broken in left_out[0]
            assert sum(len(read_deck_file(deck).notes) for deck in decks) == items - len(left_out)
            new = sum(import_deck(collection, deck).new for deck in decks)
            assert new == items - len(left_out), source_format
            all_items, all_notes = all_items + items, all_notes + new
        assert collection.note_count() == all_notes
    assert all_notes / all_items >= 0.95, (all_notes, all_items)


def test_the_items_that_are_not_broken_pass_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    for source_format in sorted(CASES):
        out = tmp_path / source_format
        imported(source_format, out)
        check = run_cli(["check", str(out)])
        broken = BROKEN.get(source_format)
        assert check.exit_code == (1 if broken else 0), check.output
        errors = "1 error," if broken else "0 errors,"
        assert errors in check.output and (broken is None or broken in check.output)


@pytest.mark.parametrize("source_format", sorted(CASES))
def test_auto_guesses_the_format_and_says_so(
    source_format: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    result = run_cli(["import", CASES[source_format], "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert f"Guessed the source format: {source_format} (" in result.stderr


def test_ankdown_notes_keep_the_guid_ankdown_gave_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ankdown: simple_hash("Optics/lenses.md0"), an MD5 modulo 2^63, computed here independently.
    import hashlib

    monkeypatch.chdir(FIXTURES)
    text = imported("ankdown", tmp_path / "out")
    expected = int(hashlib.md5(b"Optics/lenses.md0").hexdigest(), 16) % (1 << 63)
    assert f"guid: {expected} -->" in text


def test_a_source_in_no_known_format_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("Just prose.\n", "utf-8")
    result = run_cli(["import", str(tmp_path / "notes.md"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "cannot tell its format; name it with --from" in result.output


def test_an_ankdown_file_with_tex_in_dollars_is_read_with_dollar_math(tmp_path: Path) -> None:
    deck = tmp_path / "Algebra"
    deck.mkdir()
    (deck / "squares.md").write_text("What is $(a+b)^2$?\n\n%\n\n$a^2 + 2ab + b^2$\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli(["import", "--from", "ankdown", str(deck), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "'$…$' read as math (ankdown's 'dollar' option)" in result.stderr
    assert "squares.md:1:9: " in result.stderr  # at the first formula in dollars
    assert "What is $(a+b)^2$? ::: $a^2 + 2ab + b^2$\n" in (out / "algebra.md").read_text("utf-8")


def test_an_image_from_the_network_is_dropped_and_said(tmp_path: Path) -> None:
    source = tmp_path / "net.md"
    source.write_text("Q: What is this?\nA: A map ![map](https://example.org/map.png)\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli(["import", "--from", "hashcards", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "image 'https://example.org/map.png' (not a file" in result.stderr
    text = (out / "net.md").read_text("utf-8")
    assert "What is this? ::: A map" in text and "map.png" not in text
    assert run_cli(["check", str(out)]).exit_code == 0


def test_a_question_that_is_one_display_formula_keeps_its_answer(tmp_path: Path) -> None:
    deck = tmp_path / "Formulas"
    deck.mkdir()
    (deck / "f.md").write_text("\\[x^2\\]\n\n%\n\n- a list answer\n", "utf-8")
    out = tmp_path / "out"
    assert run_cli(["import", "--from", "ankdown", str(deck), "--out", str(out)]).exit_code == 0
    assert "$$x^2$$ :::\n\n- a list answer\n" in (out / "formulas.md").read_text("utf-8")
    check = run_cli(["check", str(out)])
    assert check.exit_code == 0, check.output


def test_a_spaced_separator_in_the_source_stays_text(tmp_path: Path) -> None:
    # 'Answer ::: 1215.' on a line of its own in an answer would start an item of its own:
    # the import writes it 'Answer \\::: 1215.', which reads back as the same one item.
    source = tmp_path / "history.md"
    source.write_text(
        "# History\n\n## Magna Carta\n\nWhen was it sealed?\n\nAnswer ::: 1215.\n\n"
        "## Glued\n\nA ratio a:::b stays text.\n",
        "utf-8",
    )
    out = tmp_path / "out"
    result = run_cli(["import", "--from", "mdanki", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 items into 1 content files" in result.stdout
    assert "2 read back as notes; 0 warnings" in result.stdout
    written = (out / "history.md").read_text("utf-8")
    assert "Answer \\::: 1215." in written and "a\\:::b" in written
    assert run_cli(["check", str(out)]).exit_code == 0


def test_a_file_that_reads_back_as_other_items_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A safety net for text of a source that still reads as this format's syntax once
    # written: here the writer is made to add an item, and the import says so, at the file.
    from ankigen.commands import import_ as command
    from ankigen.importers.writer import content_file as real

    def with_an_extra_item(deck: Any) -> tuple[str, Any]:
        text, problems = real(deck)
        return text + "\nStray ::: item\n", problems

    monkeypatch.setattr(command, "content_file", with_an_extra_item)
    source = tmp_path / "history.md"
    source.write_text("# History\n\n## Magna Carta\n\nWhen was it sealed?\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli(["import", "--from", "mdanki", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "history.md:1:1: warning: the source had 1 item but this file reads back as 2" in (
        result.stderr
    )
