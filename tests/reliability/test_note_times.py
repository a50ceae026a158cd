"""Each note is as new as the newest input it shows: in git, a committed input has
HEAD's commit time and an uncommitted one (modified, untracked, ignored) its file
time, so an edit not yet committed still makes exactly its notes newer."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.image_bytes import png
from tests.reliability.release_support import git
from tests.reliability.support import deck_rows, repro_project, run_cli

T1 = 1_600_000_000
T2 = 1_650_000_000


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = repro_project(tmp_path, monkeypatch)
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    git(work, "init", "-q")
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", "first", when=T1)
    return work


def _note_times(out: str) -> dict[str, int]:
    result = run_cli(["build", "content", "--out", out, "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    rows = deck_rows(Path(out) / "repro.apkg", "select sfld, mod from notes")
    return {str(first)[:11]: int(mod) for first, mod in rows}


def test_committed_inputs_have_the_commit_time(project: Path) -> None:
    os.utime("figures/line.py", (T2, T2))  # a checkout's file times do not count
    assert set(_note_times("out").values()) == {T1}


def test_a_modified_figure_makes_only_its_note_newer(project: Path) -> None:
    with open("figures/line.py", "a", encoding="utf-8") as script:
        script.write("    ax.set_title('edited')\n")
    os.utime("figures/line.py", (T2, T2))
    times = _note_times("out")
    assert times.pop("What does t") == T2
    assert set(times.values()) == {T1}


def test_an_uncommitted_image_is_never_older_than_head(project: Path) -> None:
    (project / "content" / "dot.png").write_bytes(png(2, 1))  # other bytes
    os.utime("content/dot.png", (T1 - 500, T1 - 500))
    times = _note_times("out")
    assert set(times.values()) == {T1}
    os.utime("content/dot.png", (T2, T2))
    assert _note_times("out2")["A picture: "] == T2


def test_an_ignored_input_counts_as_uncommitted(project: Path) -> None:
    git(project, "rm", "-q", "--cached", "content/dot.png")
    (project / ".gitignore").write_text("*.png\n", "utf-8")
    git(project, "add", ".gitignore")
    git(project, "commit", "-q", "-m", "ignore pictures", when=T1 + 10)
    os.utime("content/dot.png", (T2, T2))
    times = _note_times("out")
    assert times.pop("A picture: ") == T2
    assert set(times.values()) == {T1 + 10}


def test_touching_an_uncommitted_figure_is_not_up_to_date(project: Path) -> None:
    with open("figures/line.py", "a", encoding="utf-8") as script:
        script.write("    ax.set_title('edited')\n")
    os.utime("figures/line.py", (T2, T2))
    assert _note_times("out")["What does t"] == T2
    # Same bytes, later time: the deck's stamp counts the figure's time, so it rebuilds.
    os.utime("figures/line.py", (T2 + 100, T2 + 100))
    assert _note_times("out")["What does t"] == T2 + 100


def test_a_figure_outside_the_work_tree_has_its_own_time(project: Path) -> None:
    outside = project.parent / "shared-figures"
    shutil.copytree(project / "figures", outside)
    os.utime(outside / "line.py", (T2, T2))
    result = run_cli(
        ["build", "content", "--out", "out", "--math", "mathjax", "--figures", str(outside)]
    )
    assert result.exit_code == 0, result.output
    rows = deck_rows(Path("out") / "repro.apkg", "select sfld, mod from notes")
    times = {str(first)[:11]: int(mod) for first, mod in rows}
    assert times.pop("What does t") == T2
    assert set(times.values()) == {T1}
