"""The checker's limits have no gaps, and a project cannot start more processes than CPUs.

* The power guard sizes any base, symbolic ones included: ``(1+pi)^(10^9)``
  is refused before sympy expands it (it allocated 3 GB in its 5 s before).
* The depth guard counts operator chains, not only parentheses: a long
  ``1+1+…+1`` is a tree as deep as its operators, walked recursively.
* ``jobs`` (``[tool.ankigen]`` or ``-j``) is capped at the usable CPUs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.build.cpus import usable_cpus
from ankigen.cli.options import resolve
from tests.check.check_support import check_text
from tests.reliability.support import run_cli


def errors(text: str) -> list[str]:
    """The errors checking ``text`` gives (a literal-only check's warning aside)."""
    return [d.message for d in check_text(text).diagnostics if d.is_error]


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("(1+pi)^(10^9) == 0", "coefficients of about 301,029,995 digits"),
        ("(1+x)^(10^9) == 0", "coefficients of about 301,029,995 digits"),
        ("(2*x)^(10^9) == 0", "the power has about 301,029,995 digits"),
        ("(1+pi)^(10^9 + pi) == 0", "coefficients of about 301,029,995 digits"),
        ("(1+pi)^(10^5) == 0", "power too large at column 14: expanded, it has about 10^5 terms"),
        ("((1+pi)^1000)^1000 == 0", "power too large at column 21"),
        ("sqrt(2)^(10^10) == 0", "number too large at column 15"),
    ],
)
def test_every_large_power_is_refused_before_it_is_computed(statement: str, message: str) -> None:
    (found,) = errors(f"assert {statement}\n")
    assert message in found


def test_a_chain_of_squares_through_let_names_is_refused() -> None:
    """Each product is one uninterruptible multiplication: a1*a1 doubles the size each time."""
    lets = ["let a0 = 10^20000"] + [f"let a{n} = a{n - 1}*a{n - 1}" for n in range(1, 30)]
    (found,) = errors("\n".join([*lets, "assert a29 == 0"]) + "\n")
    assert "number too large" in found and "the product has about" in found


@pytest.mark.parametrize(
    "statement",
    ["(1+x)^3 == 1 + 3*x + 3*x^2 + x^3", "x^(10^9) == x^(10^9)", "2^64 == 18446744073709551616"],
)
def test_powers_that_are_cheap_still_pass(statement: str) -> None:
    assert errors(f"assert {statement}\n") == []


@pytest.mark.parametrize(
    ("chain", "message"),
    [
        ("assert " + "+".join(["1"] * 990) + " == 990", "expression more than 200 levels deep"),
        ("assert " + "*".join(["x"] * 990) + " == 1", "expression more than 200 levels deep"),
        ("assert `2` == $" + "+".join(["1"] * 990) + "$", "formula more than 200 levels deep"),
        ("assert `2` == $" + "\\cdot ".join(["x"] * 250) + "$", "formula more than 200 levels"),
        ("assert `2` == $" + " ".join(["x"] * 500) + "$", "formula more than 200 levels deep"),
    ],
    ids=["sum", "product", "tex-sum", "tex-cdot", "tex-juxtaposed"],
)
def test_a_long_operator_chain_is_refused_not_a_recursion_error(chain: str, message: str) -> None:
    assert len(chain) > 990  # under the statement length limit, over the depth limit
    (found,) = errors(chain + "\n")
    assert message in found


def test_a_chain_within_the_limit_passes() -> None:
    assert errors("assert " + "+".join(["1"] * 150) + " == 150\n") == []


def test_a_1979_character_chain_in_a_deck_ends_in_an_error_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    chain = "+".join(["1"] * 990)
    assert len(chain) == 1979
    (tmp_path / "content" / "deck.md").write_text(
        f"# D\n\nQ ::: A `2`.\n\n```check\nassert {chain} == 990\n```\n", "utf-8"
    )
    result = run_cli(["check"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "expression more than 200 levels deep" in result.stderr


@pytest.mark.parametrize("where", ["setting", "option"])
def test_jobs_are_capped_at_the_usable_cpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    if where == "setting":
        (tmp_path / "pyproject.toml").write_text("[tool.ankigen]\njobs = 400\n", "utf-8")
    options = resolve((), jobs=400 if where == "option" else None)
    assert options.jobs == usable_cpus()
    assert resolve((), jobs=1).jobs == 1
