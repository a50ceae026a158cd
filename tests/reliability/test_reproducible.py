"""Reproducible builds: the same source gives the same ``.apkg`` bytes, and every
timestamp in it comes from SOURCE_DATE_EPOCH, else the last git commit of the
content, else the content file's modification time."""

from __future__ import annotations

import json
import os
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from tests.reliability.support import deck_rows, repro_project, run_cli

T1 = 1_600_000_000
T2 = 1_650_000_000


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return repro_project(tmp_path, monkeypatch)


def _build(out: str, *extra: str) -> Path:
    result = run_cli(["build", "content", "--out", out, "--figures", "figures", *extra])
    assert result.exit_code == 0, result.output
    return Path(out) / "repro.apkg"


def _times(apkg: Path) -> set[int]:
    """Every modification time of notes and cards in the deck."""
    notes = {m for (m,) in deck_rows(apkg, "select mod from notes")}
    cards = {m for (m,) in deck_rows(apkg, "select mod from cards")}
    return notes | cards


def test_two_cold_builds_are_identical(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _build("out1").read_bytes()
    # The second build runs "later" by the wall clock: nothing may depend on it.
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 86_400 * 365)
    second = _build("out2").read_bytes()
    assert first == second


def test_math_modes_are_each_reproducible(project: Path) -> None:
    assert (
        _build("a", "--math", "mathjax").read_bytes()
        == _build("b", "--math", "mathjax").read_bytes()
    )


def test_zip_entries_fixed_order_and_dates(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    with zipfile.ZipFile(_build("out")) as archive:
        infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names[:2] == ["collection.anki2", "media"]
    assert names[2:] == sorted(names[2:], key=int)
    assert {i.date_time for i in infos} == {time.gmtime(T1)[:6]}


def test_source_date_epoch_sets_every_mod_time(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T1))
    assert _times(_build("one")) == {T1}
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    later = _build("two")
    assert _times(later) == {T2}
    # Note types carry the build time too (Anki compares it on re-import). The
    # collection's own crt/mod and the deck's mod are genanki's fixed constants.
    (models,) = deck_rows(later, "select models from col")[0]
    assert {m["mod"] for m in json.loads(models).values()} == {T2}


def test_outside_git_the_content_file_time_is_used(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    for path in Path(".").rglob("*"):
        os.utime(path, (T1, T1))
    assert _times(_build("out")) == {T1}
    # A note is as new as the newest input it shows: touching a figure script
    # makes the notes that show it newer, and only those.
    os.utime("figures/line.py", (T2, T2))
    assert _times(_build("out2")) == {T1, T2}


def _git(*args: str, when: int | None = None) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(["git", *args], check=True, capture_output=True, env=env)


def test_in_git_the_commit_time_is_used(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    _git("init", "-q")
    _git("add", "content", "figures")
    _git("commit", "-q", "-m", "first", when=T1)
    os.utime("content/repro.md", (T2, T2))  # a checkout touches files: must not matter
    first = _build("out1")
    assert _times(first) == {T1}

    # Rebuilding the same commit, after the files were touched again: same bytes.
    os.utime("content/repro.md", (T2 + 5, T2 + 5))
    assert _build("out2").read_bytes() == first.read_bytes()

    # A later commit of the content is a later time.
    with open("content/repro.md", "a", encoding="utf-8") as handle:
        handle.write("\nA new question? ::: A new answer.\n")
    _git("commit", "-q", "-am", "second", when=T1 + 100)
    assert _times(_build("out3")) == {T1 + 100}


def test_uncommitted_edit_is_newer_than_the_commit(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    _git("init", "-q")
    _git("add", "content", "figures")
    _git("commit", "-q", "-m", "first", when=T1)
    with open("content/repro.md", "a", encoding="utf-8") as handle:
        handle.write("\nA new question? ::: A new answer.\n")
    os.utime("content/repro.md", (T2, T2))
    assert _times(_build("out")) == {T2}
