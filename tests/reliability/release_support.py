"""Helpers for release tests: a git history of a small project, clean clones, and
what a real Anki import did to each note (to hold ``ankigen diff`` against it)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest

from ankigen.importers.apkg import read_deck_file
from ankigen.package.release import is_release_tag
from tests.reliability.support import run_cli

T0 = 1_750_000_000

#: A note as a learner sees it: its fields and its tags (release tags aside).
Content = tuple[tuple[str, ...], tuple[str, ...]]


def git(repo: Path, *args: str, when: int | None = None) -> str:
    """Run git in ``repo`` with a fixed identity (and commit date ``when``)."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    done = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)
    return done.stdout.decode()


def build_clone(
    origin: Path, clone: Path, monkeypatch: pytest.MonkeyPatch, *extra: str, shallow: bool = False
) -> tuple[Path, int, str]:
    """Clone ``origin`` afresh (``--depth 1`` when shallow), build it there in mathjax mode.

    Returns the deck, the exit status and the output.
    """
    depth = ["--depth", "1"] if shallow else []
    subprocess.run(
        ["git", "clone", "-q", *depth, f"file://{origin}", str(clone)],
        check=True,
        capture_output=True,
    )
    monkeypatch.chdir(clone)
    result = run_cli(["build", "--math", "mathjax", *extra])
    monkeypatch.chdir(origin)
    return clone / "build" / "cells.apkg", result.exit_code, result.output


def import_release(col: Collection, apkg: Path, *, merge_note_types: bool = False):  # type: ignore[no-untyped-def]
    """Import like the desktop dialog (its presets), optionally with "merge note types" on."""
    options = col._backend.get_import_anki_package_presets()
    options.merge_notetypes = merge_note_types
    response = col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(apkg), options=options)
    )
    col.models._clear_cache()
    return response.log


def collection_notes(col: Collection) -> dict[str, Content]:
    """Every note of the collection by GUID, as a learner sees it."""
    notes: dict[str, Content] = {}
    assert col.db is not None, "the collection is open"
    for nid, guid in col.db.all("select id, guid from notes"):
        note = col.get_note(nid)
        tags = tuple(sorted(t for t in note.tags if not is_release_tag(t)))
        notes[guid] = (tuple(note.fields), tags)
    return notes


def package_notes(apkg: Path) -> dict[str, Content]:
    """Every note of a package by GUID, as a learner would see it."""
    notes: dict[str, Content] = {}
    for guid, note in read_deck_file(apkg).notes.items():
        notes[guid] = (note.fields, tuple(sorted(t for t in note.tags if not is_release_tag(t))))
    return notes


@dataclass(frozen=True)
class Outcome:
    """What an import did, note by note (GUID sets), judged from the collection itself."""

    added: frozenset[str]
    updated: frozenset[str]
    unchanged: frozenset[str]
    removed: frozenset[str]
    not_applied: frozenset[str]

    def as_dict(self) -> dict[str, set[str]]:
        """Outcome name -> GUIDs, in the shape of ``ankigen diff --format json``."""
        return {name: set(getattr(self, name)) for name in self.__dataclass_fields__}


def judge(
    previous: Mapping[str, Content],
    before: Mapping[str, Content],
    after: Mapping[str, Content],
    incoming: Mapping[str, Content],
) -> Outcome:
    """Classify every note by comparing the collection before and after the import.

    ``previous`` is the release imported last: its notes that ``incoming``
    lacks are the removed ones (older removals are no longer counted).
    """
    common = set(incoming) & set(before)
    return Outcome(
        added=frozenset(set(after) - set(before)),
        updated=frozenset(g for g in common if after[g] != before[g]),
        unchanged=frozenset(g for g in common if incoming[g] == before[g] == after[g]),
        removed=frozenset(g for g in previous if g not in incoming and g in after),
        not_applied=frozenset(g for g in common if after[g] != incoming[g]),
    )


def note_type_names(col: Collection) -> list[str]:
    """Every note type in the collection (a copy Anki made would show up here)."""
    return sorted(m["name"] for m in col.models.all())


def first_field_clashes(col: Collection) -> list[str]:
    """First fields shared by two notes of one note type: duplicates a learner would see."""
    assert col.db is not None, "the collection is open"
    rows = col.db.all("select mid, sfld, count() from notes group by mid, sfld having count() > 1")
    return [str(sfld) for _, sfld, _ in rows]
