"""`-j/--jobs` and `[tool.ankigen] jobs`: how many processes draw; never what a deck is."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.build.cpus import usable_cpus
from ankigen.cli.app import main
from ankigen.cli.options import resolve
from tests.perf.parallel_support import bank, benchmark_bank


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def project(root: Path, table: str = "") -> Path:
    (root / "content").mkdir(parents=True)
    (root / "content" / "bank.md").write_text(benchmark_bank(200), "utf-8")
    (root / "pyproject.toml").write_text(f"[tool.ankigen]\n{table}", "utf-8")
    return root


def test_build_with_one_job_and_with_two_writes_the_same_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path))
    decks = {}
    for jobs in ("1", "2"):
        result = invoke("build", "--math", "mathjax", "--out", f"out{jobs}", "-j", jobs)
        assert result.exit_code == 0, result.output
        assert "wrote out" in result.output and "200 notes" in result.output
        decks[jobs] = (tmp_path / f"out{jobs}" / "bank.apkg").read_bytes()
    assert decks["1"] == decks["2"]


def test_check_with_one_job_and_with_two_reports_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bank.md").write_text(bank(16), "utf-8")  # with errors, in many sections
    one = invoke("check", "bank.md", "--jobs", "1", "--format", "json")
    two = invoke("check", "bank.md", "--jobs", "2", "--format", "json")
    assert one.exit_code == two.exit_code == 1
    assert '"code": "AG107"' in one.output and '"code": "AG106"' in one.output
    assert two.output == one.output


def test_jobs_come_from_the_option_the_project_or_the_cpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path / "plain"))
    assert resolve(()).jobs == usable_cpus()
    monkeypatch.setattr("ankigen.build.cpus.usable_cpus", lambda: 4)  # whatever this machine has
    assert resolve((), jobs=3).jobs == 3
    assert resolve((), jobs=400).jobs == 4  # never more than the usable CPUs
    monkeypatch.chdir(project(tmp_path / "set", "jobs = 1\n"))
    assert resolve(()).jobs == 1
    assert resolve((), jobs=2).jobs == 2  # the option wins


@pytest.mark.parametrize("table", ["jobs = 0\n", 'jobs = "2"\n', "jobs = true\n"])
def test_bad_jobs_in_the_project_are_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str
) -> None:
    monkeypatch.chdir(project(tmp_path, table))
    result = invoke("check")
    assert result.exit_code == 2
    assert "[tool.ankigen] jobs must be a whole number, 1 or more" in result.output


def test_zero_jobs_on_the_command_line_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path))
    result = invoke("build", "-j", "0")
    assert result.exit_code == 2
    assert "'-j' / '--jobs'" in result.output and not (tmp_path / "build").exists()


def test_help_explains_jobs() -> None:
    for command in ("build", "check"):
        result = invoke(command, "--help")
        assert "-j, --jobs N" in result.output and "every CPU" in result.output
