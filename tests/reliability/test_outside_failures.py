"""Failures that are not the content's fault — a full disk, ``ulimit -f``, an unusable
TMPDIR, Ctrl-C or SIGTERM while a deck is packaged — end with one plain line and the
documented exit status, leave the previous deck byte-for-byte, and leave no scratch files
in the output folder or in TMPDIR."""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import genanki
import pytest

import ankigen.package
from tests.reliability.support import GOOD_DECK, files_in, leftovers, run_cli

BUILD = ["build", "content", "--out", "out", "--math", "mathjax"]


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a good deck built into ``out/`` and a changed content file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    assert run_cli(BUILD).exit_code == 0
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK + "\nA second question? ::: Yes.\n")
    return tmp_path


@pytest.fixture()
def private_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TMPDIR for this test only, so that anything left in it is seen."""
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _in_zip_writing(action: Callable[[], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run ``action`` in the middle of packaging, once the collection is written."""
    real = ankigen.package._write_zip

    def write_zip(*args: object) -> None:
        action()
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(ankigen.package, "_write_zip", write_zip)


def _assert_kept(project: Path, before: dict[str, bytes], tmpdir: Path | None = None) -> None:
    assert files_in(project / "out") == before, "the previous deck changed"
    assert leftovers(project / "out") == []
    if tmpdir is not None:
        assert list(tmpdir.iterdir()) == []


def test_sigterm_during_packaging_exits_143_and_cleans_up(
    project: Path, private_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files_in(project / "out")
    _in_zip_writing(lambda: os.kill(os.getpid(), signal.SIGTERM), monkeypatch)
    result = run_cli(BUILD)
    assert result.exit_code == 143, result.output
    assert result.stderr == "Stopped by SIGTERM; the previous decks were left as they were.\n"
    _assert_kept(project, before, private_tmpdir)
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is put back


def test_ctrl_c_during_packaging_exits_130_and_cleans_up(
    project: Path, private_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files_in(project / "out")

    def interrupt() -> None:
        raise KeyboardInterrupt

    _in_zip_writing(interrupt, monkeypatch)
    result = run_cli(BUILD)
    assert result.exit_code == 130, result.output
    assert result.stderr == "Interrupted; the previous decks were left as they were.\n"
    _assert_kept(project, before, private_tmpdir)


def test_full_disk_in_the_database_is_a_plain_message(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files_in(project / "out")

    def full(*args: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(genanki.Package, "write_to_db", full)
    result = run_cli(BUILD)
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        "Build failed: cannot write out/deck.apkg: database or disk is full; "
        "the previous deck was left as it was.\n"
    )
    _assert_kept(project, before)


def test_unusable_tmpdir_does_not_matter(project: Path, tmp_path: Path) -> None:
    """Packaging writes its scratch files beside the deck, never in TMPDIR."""
    not_a_folder = tmp_path / "full"
    not_a_folder.write_text("TMPDIR points at a file: nothing can be created in it")
    env = {**os.environ, "TMPDIR": str(not_a_folder), "SQLITE_TMPDIR": str(not_a_folder)}
    completed = _cli_process(project, env)
    assert completed.returncode == 0, completed.stderr
    assert leftovers(project / "out") == []


def test_file_size_limit_is_a_plain_message(project: Path) -> None:
    """``ulimit -f``: the kernel refuses the write (Python ignores SIGXFSZ)."""
    before = files_in(project / "out")
    limit = 8 * 1024  # below the deck's collection, above the build's other files

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    completed = _cli_process(project, dict(os.environ), preexec=small_files)
    assert completed.returncode == 1, completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stderr.startswith("Build failed: cannot write out/deck.apkg: "), (
        completed.stderr
    )
    assert completed.stderr.endswith("; the previous deck was left as it was.\n")
    _assert_kept(project, before)


def _cli_process(
    project: Path, env: dict[str, str], preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "ankigen", *BUILD],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=preexec,
        check=False,
    )


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="formulas draw in a pool on 2+ cores")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_to_the_process_group_while_formulas_draw(
    project: Path, signum: int, status: int
) -> None:
    """Ctrl-C in a terminal signals the build and all its drawing workers at once."""
    # enough formulas for the drawing pool, each long enough to keep it busy for seconds
    slow = " + ".join(["\\underbrace{\\frac{x_{N}}{y}}_{k}"] * 40)
    items = "\n".join(f"Q{n}? ::: ${slow.replace('N', str(n))}$\n" for n in range(420))
    (project / "content" / "deck.md").write_text(f"# Slow\n\n{items}", "utf-8")
    before = files_in(project / "out")
    build = subprocess.Popen(
        [sys.executable, "-m", "ankigen", "build", "content", "--out", "out"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        children = Path(f"/proc/{build.pid}/task/{build.pid}/children")
        while build.poll() is None and len(children.read_text().split()) < 2:
            time.sleep(0.02)  # until the drawing workers run
        os.killpg(build.pid, signum)
        _, stderr = build.communicate(timeout=120)
    finally:
        build.kill()
    shown = [line for line in stderr.splitlines() if "unverified claim" not in line]
    assert build.returncode == status, stderr
    assert shown == [
        "Interrupted; the previous decks were left as they were."
        if signum == signal.SIGINT
        else "Stopped by SIGTERM; the previous decks were left as they were."
    ]
    _assert_kept(project, before)
