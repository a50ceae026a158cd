"""Every release reaches learners, and ``ankigen diff`` says beforehand what it does.

A small project gets a git history: a commit that changes only a figure
script, only an image, only an answer, an item's kind under the same id
(a new note: a cloze's GUID mixes in its kind), and one that removes an
item. Each release is built from a clean ``--depth 1`` clone with
``--against`` the previous release, and again from a full clone at another
path, in another time zone and locale: the bytes are the same. Each release
is imported over the previous ones in real Anki, with the desktop dialog's
options and with "merge note types": no edit is left unapplied, no duplicate
and no note type copy appears, and the diff predicted every note's outcome.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

anki_collection = pytest.importorskip("anki.collection")

if TYPE_CHECKING:
    from anki.collection import Collection

from tests.reliability.release_support import (  # noqa: E402
    T0,
    build_clone,
    collection_notes,
    first_field_clashes,
    git,
    import_release,
    judge,
    note_type_names,
    package_notes,
)
from tests.reliability.support import run_cli  # noqa: E402

DECK = """\
---
deck: Cells
key: cells
---

# Cells

What is the powerhouse of the cell? ::: The mitochondrion. <!-- id: mito -->

What does the growth curve look like? ::: ![growth](figure:curve) <!-- id: curve -->

What does a stained nucleus look like? ::: ![nucleus](dot.svg) <!-- id: dot -->

Where are ribosomes made? ::: In the nucleolus. <!-- id: ribo -->

The membrane is a {{c1::phospholipid bilayer}}. <!-- id: membrane -->

What does ATP carry? ::: Energy.
"""

FIGURE = "def draw(fig, formulas):\n    fig.add_subplot().plot([0, 1], [0, {slope}])\n"
IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle r="{r}"/></svg>\n'
MITO = "What is the powerhouse of the cell? ::: The mitochondrion. <!-- id: mito -->"


def _mito_cloze(note_id: str) -> str:
    return f"The {{{{c1::mitochondrion}}}} is the powerhouse of the cell. <!-- id: {note_id} -->"


@pytest.fixture()
def origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The authors' repository, first commit made."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    repo = tmp_path / "origin"
    (repo / "content").mkdir(parents=True)
    (repo / "figures").mkdir()
    (repo / "content" / "cells.md").write_text(DECK, "utf-8")
    (repo / "content" / "dot.svg").write_text(IMAGE.format(r=1), "utf-8")
    (repo / "figures" / "curve.py").write_text(FIGURE.format(slope=1), "utf-8")
    (repo / ".gitignore").write_text("build/\n", "utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first release", when=T0)
    monkeypatch.chdir(repo)
    return repo


@pytest.fixture()
def collections(tmp_path: Path) -> Iterator[dict[bool, Collection]]:
    """Two learners: one imports with the dialog's defaults, one with "merge note types"."""
    opened = {}
    for merge in (False, True):
        folder = tmp_path / f"anki-{merge}"
        folder.mkdir()
        opened[merge] = anki_collection.Collection(str(folder / "collection.anki2"))
    try:
        yield opened
    finally:
        for col in opened.values():
            col.close()


def _edit(repo: Path, path: str, old: str, new: str) -> None:
    file = repo / path
    text = file.read_text("utf-8")
    assert text.count(old) == 1, old
    file.write_text(text.replace(old, new), "utf-8")


def _commit(repo: Path, message: str, step: int) -> None:
    git(repo, "commit", "-q", "-am", message, when=T0 + 3600 * step)


class Releases:
    """Builds each commit twice (shallow with --against, full elsewhere) and keeps them."""

    def __init__(self, origin: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.origin, self.work, self.monkeypatch = origin, work, monkeypatch
        self.decks: list[Path] = []

    def build(self, step: int) -> Path:
        against = ("--against", str(self.decks[-1])) if self.decks else ()
        shallow, status, output = build_clone(
            self.origin, self.work / f"ci-{step}", self.monkeypatch, *against, shallow=True
        )
        assert status == 0, output
        if self.decks:
            assert "not applied" in output and "0 not applied" in output, output
        self._assert_same_bytes_elsewhere(step, shallow.read_bytes())
        kept = self.work / f"release-{step}.apkg"
        shutil.copyfile(shallow, kept)
        self.decks.append(kept)
        return kept

    def _assert_same_bytes_elsewhere(self, step: int, expected: bytes) -> None:
        """A full clone, at another path, in another time zone and locale: same bytes."""
        clone = self.work / "elsewhere" / f"full clone {step}"
        with pytest.MonkeyPatch.context() as elsewhere:
            elsewhere.setenv("TZ", "Pacific/Kiritimati")
            elsewhere.setenv("LC_ALL", "C")
            time.tzset()
            full, status, output = build_clone(self.origin, clone, elsewhere)
        time.tzset()
        assert status == 0, output
        assert full.read_bytes() == expected, "a full and a shallow clone built other bytes"


def _diff(old: Path, new: Path) -> dict[str, set[str]]:
    result = run_cli(["diff", str(old), str(new), "--format", "json", "--strict"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    names = ("added", "updated", "unchanged", "removed", "not_applied")
    return {name: {note["guid"] for note in record[name]} for name in names}


def _import_and_check(
    collections: dict[bool, Collection], old: Path, new: Path
) -> dict[str, set[str]]:
    """Import ``new`` for both learners; the outcome is what ``ankigen diff`` predicted."""
    predicted = _diff(old, new)
    previous, incoming = package_notes(old), package_notes(new)
    for merge, col in collections.items():
        before, types = collection_notes(col), note_type_names(col)
        log = import_release(col, new, merge_note_types=merge)
        after = collection_notes(col)
        assert set(before) <= set(after), "an import never deletes a note"
        outcome = judge(previous, before, after, incoming).as_dict()
        assert outcome == predicted, f"merge note types={merge}"
        assert (len(log.conflicting), len(log.duplicate)) == (0, 0)
        # Anki's own log agrees: the added notes are new, and every note NEW still
        # holds is re-written (each release is newer), unchanged ones included.
        assert len(log.new) == len(predicted["added"])
        assert len(log.updated) == len(predicted["updated"]) + len(predicted["unchanged"])
        assert note_type_names(col) == types, "Anki made a copy of a note type"
        assert first_field_clashes(col) == []
    return predicted


def test_each_release_reaches_learners_as_predicted(
    origin: Path,
    tmp_path: Path,
    collections: dict[bool, Collection],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    releases = Releases(origin, tmp_path, monkeypatch)
    first = releases.build(0)
    for merge, col in collections.items():
        log = import_release(col, first, merge_note_types=merge)
        assert len(log.new) == 6
    guids = {note[0][0].split("?")[0][:24]: guid for guid, note in package_notes(first).items()}
    mito, curve, dot, ribo, atp = (
        guids[key]
        for key in (
            "What is the powerhouse o",
            "What does the growth cur",
            "What does a stained nucl",
            "Where are ribosomes made",
            "What does ATP carry",
        )
    )

    def step(number: int) -> dict[str, set[str]]:
        return _import_and_check(collections, releases.decks[-1], releases.build(number))

    _edit(origin, "figures/curve.py", "[0, 1])", "[0, 2])")
    _commit(origin, "steeper curve", 1)
    assert step(1)["updated"] == {curve}

    _edit(origin, "content/dot.svg", 'r="1"', 'r="2"')
    _commit(origin, "bigger dot", 2)
    assert step(2)["updated"] == {dot}

    _edit(origin, "content/cells.md", "In the nucleolus.", "In the nucleolus, in the nucleus.")
    _commit(origin, "longer answer", 3)
    assert step(3)["updated"] == {ribo}

    # A reveal item turned into a cloze under the same id: a new note (its
    # GUID mixes in the kind), the reveal note removed; nothing is skipped.
    _edit(origin, "content/cells.md", MITO, _mito_cloze("mito"))
    _commit(origin, "mito becomes a cloze", 4)
    changes = step(4)
    assert changes["removed"] == {mito} and len(changes["added"]) == 1
    assert changes["updated"] == set()

    _edit(origin, "content/cells.md", "What does ATP carry? ::: Energy.\n", "")
    _commit(origin, "drop the ATP question", 6)
    assert step(6)["removed"] == {atp}

    # A learner finds every note the releases removed with the search the diff prints.
    summary = run_cli(["diff", str(releases.decks[-2]), str(releases.decks[-1])]).stdout
    search = summary.rsplit("search in Browse: ", 1)[1].strip()
    for col in collections.values():
        found = {col.get_note(nid).guid for nid in col.find_notes(search)}
        assert found == {mito, atp}
