"""Limits: pathological content is refused with a clear error, never by hanging or
crashing.

No assertion here is about speed (that belongs in benchmarks/): each test proves the
input was stopped by a size or depth guard (the guard's own message) or by the time
limit (a tiny limit against work that can never finish in it). Builds that might hang
run in a subprocess with a generous kill timer, a guard that turns a hang into a
failure instead of a stuck suite; it never fires for a working build.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.support import run_cli

#: Seconds after which a build counts as hung and is killed: a hang guard, not a speed
#: bound (a guarded input is refused in well under a second on an idle machine).
HANG_GUARD = 300.0

HUGE_SUM = "$" + "x+" * 50_000 + "x$"
NESTED_BRACES = "$" + "{" * 10_000 + "x" + "}" * 10_000 + "$"
NESTED_FRACS = "$$" + "\\frac{1}{" * 3_000 + "x" + "}" * 3_000 + "$$"
#: Under the length limit, so that only the nesting depth is wrong.
DEEP_BRACES = "$" + "{" * 1_500 + "x" + "}" * 1_500 + "$"
DEEP_FRACS = "$$" + "\\frac{1}{" * 350 + "x" + "}" * 350 + "$$"


def _project(tmp_path: Path, body: str) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(f"# Limits\n\n{body}\n", "utf-8")
    return tmp_path


def _build_bounded(project: Path, math: str) -> tuple[int | None, str]:
    """``ankigen build`` in its own process group, killed after HANG_GUARD."""
    return _run_bounded(
        project, "build", "content", "--out", "out", "--figures", "figures", "--math", math
    )


def _run_bounded(project: Path, *args: str) -> tuple[int | None, str]:
    """``ankigen ARGS`` in its own process group, killed after HANG_GUARD seconds.

    Returns (exit code or None when it hung and had to be killed, stderr).
    """
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    command = [sys.executable, "-m", "ankigen", *args]
    process = subprocess.Popen(
        command,
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
        return None, stderr
    return process.returncode, stderr


def test_huge_formula_is_refused_by_the_length_limit_in_image_mode(tmp_path: Path) -> None:
    project = _project(tmp_path, f"Q ::: {HUGE_SUM}")
    code, stderr = _build_bounded(project, "image")
    assert code == 1, "hung: killed by the guard" if code is None else stderr
    assert "content/deck.md:3:7: formula" in stderr
    assert "formula is too long" in stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        (NESTED_BRACES, "formula is too long"),
        (NESTED_FRACS, "formula is too long"),
        (DEEP_BRACES, "formula nests braces 1500 deep"),
        (DEEP_FRACS, "formula nests braces"),
    ],
    ids=["braces-10000", "fracs-3000", "braces-1500", "fracs-350"],
)
def test_deeply_nested_formula_is_refused_in_image_mode(
    formula: str, message: str, tmp_path: Path
) -> None:
    project = _project(tmp_path, f"Q ::: {formula}")
    code, stderr = _build_bounded(project, "image")
    assert code == 1, "hung: killed by the guard" if code is None else stderr
    assert "Traceback" not in stderr
    assert "content/deck.md:3:7: formula" in stderr
    assert message in stderr


@pytest.mark.parametrize(
    "formula",
    [HUGE_SUM, NESTED_BRACES, NESTED_FRACS, DEEP_BRACES],
    ids=["huge-sum", "braces", "fracs", "deep-braces"],
)
def test_pathological_formula_is_refused_in_mathjax_mode(
    formula: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anki's MathJax would have to typeset it on every review: refused here too."""
    project = _project(tmp_path, f"Q ::: {formula}")
    monkeypatch.chdir(project)
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "content/deck.md:3:7: formula" in result.stderr
    assert not (project / "out" / "deck.apkg").exists()


def test_refused_formula_error_is_a_readable_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, f"Q ::: {HUGE_SUM}")
    monkeypatch.chdir(project)
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 1
    assert max(len(line) for line in result.stderr.splitlines()) < 500


@pytest.mark.parametrize(
    "body",
    [
        "> " * 10_000 + "Q ::: A",
        "- " * 5_000 + "Q ::: A",
        "Q ::: " + "[" * 20_000 + "x" + "]" * 20_000,
        "{{c1::" * 5_000 + "x" + "}}" * 5_000,
        "Q ::: " + "*" * 50_000,
        "Q ::: " + "$" * 50_000,
        "Q ::: A " * 20_000,
    ],
    ids=["quotes", "lists", "brackets", "clozes", "stars", "dollars", "separators"],
)
def test_pathological_markdown_is_handled_without_a_crash(
    body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, body)
    monkeypatch.chdir(project)
    result = run_cli(["check", "content", "--figures", "figures"])
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "statement",
    [
        "assert " + "(" * 5_000 + "1" + ")" * 5_000 + " == 1",
        "assert " + "-" * 20_000 + "1 == 1",
        "assert 2^2^2^2^2^2^2 == 1",
        "assert 10^10^10 == 1",
        "assert k == 1 for k in 1..1000000000",
    ],
    ids=["parens", "minus", "power-tower", "huge-power", "huge-range"],
)
def test_pathological_check_is_refused_with_an_error(
    statement: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, f"Q ::: A.\n\n```check\n{statement}\n```")
    monkeypatch.chdir(project)
    result = run_cli(["check", "content", "--figures", "figures"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "content/deck.md:6:" in result.stderr
    # refused by a size guard before any work, not cut off by the (default 5 s) time limit
    assert "gave up after" not in result.stderr, result.stderr


def test_hanging_simplify_is_stopped_by_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statement sympy cannot finish is given up after the per-statement limit.

    Expanding (a+b+c+d+e+f)^60 never finishes within a second on any machine, so the
    limit fires every time; the next statement still runs.
    """
    limit = 1.0
    statement = "assert (a+b+c+d+e+f)^60 == (a+b+c+d+e+f)^59*(a+b+c+d+e+f) + 1"
    project = _project(tmp_path, f"Q ::: A.\n\n```check\n{statement}\nassert k == k\n```")
    (project / "pyproject.toml").write_text(f"[tool.ankigen]\ncheck-time-limit = {limit}\n")
    monkeypatch.chdir(project)
    result = run_cli(["check", "content", "--figures", "figures"])
    assert result.exit_code == 1, result.output
    expected = f"content/deck.md:6:1: gave up after {limit:g} s"
    assert result.stderr.startswith(expected), result.stderr
    assert "content/deck.md:7" not in result.stderr  # the next statement still ran, and passed


def test_run_of_backticks_does_not_hang_the_checker(tmp_path: Path) -> None:
    project = _project(tmp_path, "Q ::: " + "`" * 50_000)
    code, stderr = _run_bounded(project, "check", "content", "--figures", "figures")
    assert code is not None, "hung: killed by the guard"
    assert code in (0, 1), stderr
