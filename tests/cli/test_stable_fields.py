"""A note's fields change only when what the learner sees changes (format section 8.2).

The Source field names the file and the item (its id, or a hash of its
GUID), never a line: a prose line added above the items leaves every note
unchanged for ``ankigen diff``. Diff summaries show formulas as their TeX.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main
from ankigen.importers.apkg import read_deck_file

DECK = """\
# Circles

A circle of radius $r$ has the area {{c1::$A = \\pi r^2$}}. <!-- id: area -->

What is the circumference of a circle of radius $r$? ::: $C = 2 \\pi r$. <!-- id: circumference -->

What is a diameter? ::: A chord through the centre.

$$d = {{c1::2r}}$$
"""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    return tmp_path


def build(project: Path, text: str, out: str, *extra: str) -> None:
    (project / "content" / "circles.md").write_text(text, "utf-8")
    result = invoke("build", "--out", out, *extra)
    assert result.exit_code == 0, result.output


def test_the_source_field_names_the_item_not_its_line(project: Path) -> None:
    build(project, DECK, "v1")
    notes = read_deck_file(project / "v1" / "circles.apkg").notes.values()
    sources = sorted(note.fields[-1] for note in notes)
    assert sources[:2] == ["circles.md#area", "circles.md#circumference"]
    assert all(
        s.startswith("circles.md#g-") and len(s) == len("circles.md#g-") + 10 for s in sources[2:]
    )


@pytest.mark.parametrize("math", ["image", "mathjax"])
def test_a_prose_line_above_the_items_updates_no_note(project: Path, math: str) -> None:
    build(project, DECK, "v1", "--math", math)
    moved = DECK.replace("# Circles\n", "# Circles\n\nA prose line, added later.\n\nAnd another.\n")
    build(project, moved, "v2", "--math", math)
    result = invoke("diff", "v1/circles.apkg", "v2/circles.apkg", "--format", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["counts"] == {
        "added": 0,
        "updated": 0,
        "unchanged": 4,
        "removed": 0,
        "not_applied": 0,
    }


def test_diff_summaries_show_formulas_as_tex(project: Path) -> None:
    build(project, "# Circles\n\nWhat is a circle? ::: A round shape.\n", "v1")
    build(project, DECK, "v2")
    result = invoke("diff", "v1/circles.apkg", "v2/circles.apkg")
    assert result.exit_code == 0, result.output
    added = sorted(line for line in result.stdout.splitlines() if line.startswith("  added:"))
    assert added[:2] == [
        "  added: $$d = 2r$$ (circles.md#g-" + added[0].split("#g-")[1],
        "  added: A circle of radius $r$ has the area {{c1::$A = \\pi r^2$}}. (circles.md#area)",
    ]
    assert (
        "  added: What is the circumference of a circle of radius $r$? (circles.md#circumference)"
        in added
    )
