"""Time limits are enforced from outside the work, and each is a setting.

The slow work here is deterministic ("always slow": it never finishes, or takes
orders of magnitude longer than its tiny limit); nothing asserts how long
anything took. ``bad_input/`` holds the golden messages of each limit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ankigen.build.config import load_settings
from ankigen.build.timelimit import TimeLimitExceeded, TimeLimits
from ankigen.commands.build import BuildOptions, run
from ankigen.errors import UsageError
from ankigen.model import MathMode
from ankigen.sandbox.child import ChildFailed, Task, call_in_child
from tests.reliability.support import run_cli

#: Seconds before a test that should end at once is called hung (a guard, not a speed check).
HANG_GUARD_SECONDS = 120

SLOW = "assert (a+b+c+d+e+f)^60 == (a+b+c+d+e+f)^59*(a+b+c+d+e+f) + 1"


#: A figure script that never ends: even the time limit's own exception is swallowed.
NEVER_ENDS = """
    while True:
        try:
            time.sleep(0.01)
        except BaseException:
            pass
"""

#: Seconds a child may take to start (a fresh interpreter importing matplotlib) and
#: reach the script's loop before its limit: generous, the machine may be loaded.
HANG_LIMIT = 5.0


def figure_task(tmp_path: Path, body: str) -> Task:
    """The task of drawing a figure whose ``draw`` runs ``body`` (indented), then plots."""
    script = tmp_path / "work.py"
    script.write_text(
        "import os, subprocess, time\n\ndef draw(fig, formulas):\n"
        f"{body.rstrip()}\n    fig.add_subplot().plot([0, 1])\n",
        "utf-8",
    )
    request = {"script": str(script), "shown": "work.py", "format": "svg", "formulas": []}
    return Task("ankigen.sandbox.figure:draw", request)


def test_child_returns_the_result(tmp_path: Path) -> None:
    drawn = call_in_child(figure_task(tmp_path, "    pass"), HANG_GUARD_SECONDS)
    assert isinstance(drawn, bytes) and drawn.startswith(b"<?xml")


def test_child_that_swallows_everything_is_killed(tmp_path: Path) -> None:
    with pytest.raises(TimeLimitExceeded):
        call_in_child(figure_task(tmp_path, NEVER_ENDS), HANG_LIMIT)


def test_child_that_exits_or_raises_is_a_failure(tmp_path: Path) -> None:
    with pytest.raises(ChildFailed, match="status 3"):
        call_in_child(figure_task(tmp_path, "    os._exit(3)"), HANG_GUARD_SECONDS)
    with pytest.raises(ChildFailed, match="ValueError: a figure request"):
        call_in_child(Task("ankigen.sandbox.figure:draw", "not a request"), HANG_GUARD_SECONDS)
    with pytest.raises(ChildFailed, match="not a task of ankigen"):
        call_in_child(Task("os:system", "true"), HANG_GUARD_SECONDS)


@pytest.mark.parametrize("hangs", [False, True], ids=["returns", "hangs"])
def test_processes_the_work_started_die_with_the_child(tmp_path: Path, hangs: bool) -> None:
    pid_file = tmp_path / "grandchild.pid"
    body = (
        "    sleeper = subprocess.Popen(['sleep', '600'])\n"
        f"    open({str(pid_file)!r}, 'w').write(str(sleeper.pid))\n"
    )
    if hangs:
        with pytest.raises(TimeLimitExceeded):
            call_in_child(figure_task(tmp_path, body + NEVER_ENDS), HANG_LIMIT)
    else:
        assert isinstance(call_in_child(figure_task(tmp_path, body), HANG_GUARD_SECONDS), bytes)
    assert _dies(int(pid_file.read_text()))


def test_build_options_carry_the_limits(tmp_path: Path) -> None:
    """A test (or a caller) sets a limit through BuildOptions, without monkeypatching."""
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        f"# Slow\n\nQ ::: A.\n\n```check\n{SLOW}\n```\n", "utf-8"
    )
    options = BuildOptions(
        paths=(tmp_path / "content",),
        out_dir=tmp_path / "out",
        figures_dir=tmp_path / "figures",
        math=MathMode.MATHJAX,
        write=False,
        limits=TimeLimits(check_statement=0.05),
    )
    (problem,) = [d for d in run(options).diagnostics if d.is_error]
    assert problem.line == 6
    assert problem.message.startswith("gave up after 0.05 s;")
    assert "raise check-time-limit in [tool.ankigen]" in problem.message


def test_limits_are_read_from_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ankigen]\ncheck-time-limit = 2\ncheck-deck-time-limit = 30\n"
        "formula-time-limit = 1.5\nfigure-time-limit = 120\n"
    )
    assert load_settings(tmp_path).limits == TimeLimits(2.0, 30.0, 1.5, 120.0)
    assert load_settings(tmp_path / "nowhere").limits == TimeLimits()


@pytest.mark.parametrize("value", ["0", "-1", "'fast'", "true"])
def test_a_limit_must_be_a_positive_number(tmp_path: Path, value: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.ankigen]\nfigure-time-limit = {value}\n")
    with pytest.raises(UsageError, match="figure-time-limit must be a positive number"):
        load_settings(tmp_path)


def test_bad_limit_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text("# D\n\nQ ::: A.\n")
    (tmp_path / "pyproject.toml").write_text("[tool.ankigen]\ncheck-time-limit = -5\n")
    result = run_cli(["check"])
    assert result.exit_code == 2
    assert "check-time-limit must be a positive number of seconds" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the figure by /proc")
def test_sigterm_while_a_figure_draws_kills_it_and_exits_143(tmp_path: Path) -> None:
    """The figure's child process does not outlive the build."""
    (tmp_path / "content").mkdir()
    (tmp_path / "figures").mkdir()
    (tmp_path / "content" / "deck.md").write_text("# F\n\nQ ::: ![a plot](figure:stuck)\n")
    # A figure may write no file to say it started: it names its process instead.
    (tmp_path / "figures" / "stuck.py").write_text(
        "import ctypes, time\n\n\ndef draw(fig, formulas):\n"
        f"    ctypes.CDLL(None).prctl(15, {STUCK_NAME!r}, 0, 0, 0)\n"
        "    while True:\n        try:\n            time.sleep(0.01)\n"
        "        except BaseException:\n            pass\n"
    )
    build = subprocess.Popen(
        [sys.executable, "-m", "ankigen", "build", "--math", "mathjax"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not (stuck := processes_named(STUCK_NAME)):
            assert build.poll() is None, build.communicate()
            time.sleep(0.05)
        build.send_signal(signal.SIGTERM)
        _, stderr = build.communicate(timeout=60)
    finally:
        build.kill()
    assert build.returncode == 143, stderr
    assert stderr == "Stopped by SIGTERM; the previous decks were left as they were.\n"
    assert all(_dies(pid) for pid in stuck)
    assert not (tmp_path / "build" / "deck.apkg").exists()


#: The process name the stuck figure takes (at most 15 bytes).
STUCK_NAME = b"ag-stuck-figure"


def processes_named(name: bytes) -> list[int]:
    """The ids of the processes whose name (``/proc/PID/comm``) is ``name``."""
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_bytes().strip() == name:
                found.append(int(comm.parent.name))
        except OSError:  # it ended meanwhile
            continue
    return found


def _dies(pid: int) -> bool:
    """True once ``pid`` is gone; a process sent SIGKILL may take a moment to die, so
    look again for a while (on a loaded machine it was seen alive right after the kill)."""
    for _ in range(200):
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a killed process nobody has reaped yet does not count)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


_SWALLOWS_ONE_ALARM = """
from ankigen.build.timelimit import TimeLimitExceeded, call_with_time_limit

def work():
    try:
        while True:
            pass
    except BaseException:
        pass  # as Python does for an exception raised in a gc callback or __del__
    while True:
        pass

try:
    call_with_time_limit(work, 0.1)
except TimeLimitExceeded:
    print("stopped")
"""


def test_a_swallowed_alarm_does_not_let_the_work_run_for_ever() -> None:
    """The alarm fires again until the work stops, so one lost interrupt is not fatal."""
    done = subprocess.run(
        [sys.executable, "-c", _SWALLOWS_ONE_ALARM],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_SECONDS,  # only a guard against a hang: the work stops at once
    )
    assert done.stdout.strip() == "stopped", done.stderr


class _SlowToDelete:
    """An object whose ``__del__`` outlasts the limit: the interrupt lands in it, where
    Python cannot raise it and would print "Exception ignored in ..." instead."""

    def __init__(self, seconds: float, then: BaseException | None = None) -> None:
        self.seconds, self.then = seconds, then

    def __del__(self) -> None:
        time.sleep(self.seconds)
        if self.then is not None:
            raise self.then


def _deleted_slowly_then_forever(then: BaseException | None = None) -> None:
    _SlowToDelete(0.3, then)  # dropped at once: its __del__ runs here
    time.sleep(5)


def _limited_in_a_thread(work: object) -> list[BaseException]:
    import threading

    from ankigen.build.timelimit import call_with_time_limit

    raised: list[BaseException] = []

    def run_it() -> None:
        try:
            call_with_time_limit(work, 0.1)  # type: ignore[arg-type]
        except BaseException as exc:
            raised.append(exc)

    thread = threading.Thread(target=run_it)
    thread.start()
    thread.join(10)
    return raised


@pytest.mark.parametrize("where", ["main thread (alarm)", "other thread (watchdog)"])
def test_an_interrupt_that_lands_in_a_del_is_not_printed(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A limit's interrupt inside a ``__del__`` is swallowed by Python; the build still
    stops at the limit and nothing reaches the unraisable hook (stderr, for a user)."""
    from ankigen.build.timelimit import call_with_time_limit

    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    if where.startswith("main"):
        with pytest.raises(TimeLimitExceeded):
            call_with_time_limit(_deleted_slowly_then_forever, 0.1)
    else:
        raised = _limited_in_a_thread(_deleted_slowly_then_forever)
        assert [type(exc) for exc in raised] == [TimeLimitExceeded]
        time.sleep(0.5)  # the abandoned work's __del__ has ended by now
    assert seen == []
    assert sys.unraisablehook == seen.append  # put back


def test_any_other_exception_in_a_del_still_reaches_the_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ankigen.build.timelimit import call_with_time_limit

    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)

    def work() -> int:
        _SlowToDelete(0, ValueError("a bug in a __del__"))
        return 7

    assert call_with_time_limit(work, 5) == 7
    assert [type(u.exc_value) for u in seen] == [ValueError]  # type: ignore[attr-defined]
