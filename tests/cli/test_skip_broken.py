"""Format §19, ``ankigen build --skip-broken`` through CliRunner.

Each item with an error is left out of its deck and reported as
``FILE:LINE:COL: left out: <the error>``; every deck is written from the items
that remain; the exit status is 1 when anything was left out; ``--strict`` is
refused. Without the flag a build stays all or nothing.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main
from ankigen.importers.apkg import read_deck_file

BROKEN = """# Mixed

## Good and bad

What is 2 + 2? ::: Four. <!-- id: four -->

What is shown here? ::: ![a dot](dot.png) and a wrong sum, 5. <!-- id: wrong -->

```check
assert 2 + 2 == `5`
```

Empty ::: <!-- id: empty -->

What is 3 + 3? ::: Six. <!-- id: six -->

A remote picture ::: ![x](https://example.com/x.png)
"""

GOOD = "# Fine\n\nWhat is 1 + 1? ::: Two.\n"


def _png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (content / "mixed.md").write_text(BROKEN, "utf-8")
    (content / "fine.md").write_text(GOOD, "utf-8")
    (content / "dot.png").write_bytes(_png())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def questions(deck: Path) -> list[str]:
    return sorted(note.fields[0] for note in read_deck_file(deck).notes.values())


def test_each_broken_item_is_left_out_and_the_rest_is_written(project: Path) -> None:
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1, result.output
    left_out = [line for line in result.output.splitlines() if ": left out: " in line]
    assert left_out == [
        "content/mixed.md:10:1: left out: check failed: 2 + 2 == `5`: left side is 4, "
        "right side is 5",
        "content/mixed.md:13:7: left out: empty answer: write the answer after ':::'",
        "content/mixed.md:17:27: left out: image 'https://example.com/x.png' is a URL; "
        "put the file next to the content and use a relative path",
    ]
    assert "3 items with 3 errors were left out" in result.output
    assert questions(project / "build" / "mixed.apkg") == ["What is 2 + 2?", "What is 3 + 3?"]
    assert questions(project / "build" / "fine.apkg") == ["What is 1 + 1?"]
    # The image only the left-out item showed does not ship.
    with zipfile.ZipFile(project / "build" / "mixed.apkg") as archive:
        assert "media" in archive.namelist()
        assert archive.read("media") == b"{}"


def test_without_the_flag_a_build_stays_all_or_nothing(project: Path) -> None:
    result = invoke("build")
    assert result.exit_code == 1
    assert "no deck was written" in result.output
    assert ": left out: " not in result.output
    assert not list((project / "build").glob("*.apkg"))


def test_a_plain_build_after_a_partial_one_still_fails(project: Path) -> None:
    assert invoke("build", "--skip-broken").exit_code == 1
    result = invoke("build")  # the shortened deck has no stamp that would hide its errors
    assert result.exit_code == 1
    assert "content/mixed.md:13:7: empty answer" in result.output


def test_an_error_outside_any_item_leaves_its_deck_unwritten_only(project: Path) -> None:
    (project / "content" / "mixed.md").write_text("---\nnonsense: 1\n---\n" + BROKEN, "utf-8")
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1
    assert "1 other error kept its deck from being written" in result.output
    assert not (project / "build" / "mixed.apkg").exists()
    assert questions(project / "build" / "fine.apkg") == ["What is 1 + 1?"]


def test_a_clean_build_with_the_flag_exits_0(project: Path) -> None:
    (project / "content" / "mixed.md").unlink()
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 0, result.output
    assert "left out" not in result.output.lower()


@pytest.mark.parametrize("strict", [["--strict"]], ids=["flag"])
def test_strict_is_refused(project: Path, strict: list[str]) -> None:
    result = invoke("build", "--skip-broken", *strict)
    assert result.exit_code == 2
    assert "--skip-broken cannot be combined with --strict" in result.output
    assert not (project / "build").exists() or not list((project / "build").glob("*.apkg"))


def test_strict_from_the_project_is_refused_too(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ankigen]\nstrict = true\n", "utf-8")
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 2
    assert "pass --no-strict" in result.output


def test_an_error_in_a_formulas_block_belongs_to_no_item(project: Path) -> None:
    # Every check of the file reads a formulas block: its error is the deck's.
    (project / "content" / "mixed.md").write_text(
        "# F\n\nWhat is 2? ::: Two.\n\n```formulas\nlet = = 2\n```\n", "utf-8"
    )
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1
    assert ": left out: " not in result.output
    assert not (project / "build" / "mixed.apkg").exists()
    assert (project / "build" / "fine.apkg").exists()


def test_an_error_in_prose_belongs_to_no_item(project: Path) -> None:
    # The comment ends the item (format §15): the stray '$' after it is in prose.
    (project / "content" / "mixed.md").write_text(
        "# P\n\nWhat is 2? ::: Two. <!-- id: two -->\n\nIt costs $5 to ask.\n", "utf-8"
    )
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1
    assert "content/mixed.md:5:10: unclosed '$'" in result.output
    assert ": left out: " not in result.output
    assert not (project / "build" / "mixed.apkg").exists()
    assert (project / "build" / "fine.apkg").exists()


def test_an_error_on_a_callout_marker_line_blames_no_item_before_it(project: Path) -> None:
    # The marker line makes no card: the item above the callout is not the broken one.
    (project / "content" / "mixed.md").write_text(
        "# C\n\nFetch ::: Downloads objects.\n\n> [!recall] Stash ::: On the marker line\n",
        "utf-8",
    )
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1
    assert "content/mixed.md:5:19: ':::' on a callout's marker line" in result.output
    assert ": left out: " not in result.output
    assert not (project / "build" / "mixed.apkg").exists()
    assert (project / "build" / "fine.apkg").exists()


def test_the_summary_counts_items_not_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two errors of one item (an empty question whose answer also fails) are one item.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        "# Deck\n\nFine ::: yes\n\nBroken ::: ![x](https://e.org/x.png) "
        "![y](https://e.org/y.png)\n",
        "utf-8",
    )
    result = invoke("build", "--skip-broken")
    assert result.exit_code == 1, result.output
    assert "1 item with 2 errors was left out; every other item was written." in result.output
