"""check_deck as a whole: scopes, counters, order of diagnostics, formulas, coverage."""

from __future__ import annotations

import math

import pytest

from ankigen.check import check_deck
from ankigen.errors import FormulaNotCompiled
from ankigen.model import CodeBlock
from tests.check.check_support import FILE, check_text, make_deck, make_item, messages


def test_flipping_one_claim_fails_at_its_line_with_both_sides() -> None:
    good = "assert S == k/2 where T_comm = T_compute/k\nassert k/k == 1\n"
    assert check_text(good, first_line=80).diagnostics == ()
    flipped = good.replace("k/k == 1", "k/k == 2")
    report = check_text(flipped, first_line=80)
    [diagnostic] = report.diagnostics
    assert diagnostic.format() == (
        f"{FILE}:81:1: check failed: k/k == 2: left side is 1, right side is 2"
    )
    assert (report.checks, report.failed) == (2, 1)


def test_all_problems_are_reported_in_line_order() -> None:
    items = [
        make_item(10, "", [CodeBlock("check", "assert x == x + 1\nassert (x == x\n", 12)]),
        make_item(3, "", [CodeBlock("check", "assert y == y + 1\n", 5)]),
    ]
    report = check_deck(make_deck(items))
    assert [d.line for d in report.diagnostics] == [5, 12, 13]
    assert all(d.file == FILE and d.is_error for d in report.diagnostics)
    assert not report.ok


def test_check_block_names_are_local_to_their_block() -> None:
    first = CodeBlock("check", "let half = k/2\nassert half == k/2\n", 5)
    second = CodeBlock("check", "assert half == k/2\nlet half = k/3\n", 9)
    report = check_deck(make_deck([make_item(3, "", [first, second])]))
    # In the second block 'half' is a free symbol again, and can be redefined.
    assert messages(report) == [
        "9: check failed: half == k/2: left side is half, right side is k/2"
    ]


def test_formulas_are_file_wide_and_cannot_be_redefined() -> None:
    formulas = (
        CodeBlock("formulas", "let a = 2\n", 1),
        CodeBlock("formulas", "let b = a + 1\nlet a = 5\nassert a == 2\n", 50),
    )
    check = CodeBlock("check", "assert b == 3\n", 20)
    report = check_deck(make_deck([make_item(18, "", [check])], formulas))
    assert messages(report) == [
        "51: 'a' is already defined at line 1",
        "52: a formulas block holds only 'let'; put asserts in a check block",
    ]
    assert [d.code for d in report.diagnostics] == ["AG217", "AG216"]


def test_let_sees_only_earlier_names() -> None:
    report = check_text("let a = b\nlet b = 2\nassert a == b\n")
    # 'a' was defined while 'b' was still free: the later 'let b' does not reach it.
    assert messages(report) == [
        "3: check failed: a == b: left side is b, right side is 2 (b has no value in this "
        "check: give it one with 'where', as in 'where b = …', or assert the side that holds "
        "a number alone)"
    ]


def test_formulas_compile_to_float_functions_of_their_free_symbols() -> None:
    report = check_deck(make_deck([]))
    speedup = report.formulas["S"]
    assert speedup(T_compute=1.0, k=4, T_comm=0.1) == pytest.approx(1 / (0.25 + 0.1))
    ring = report.formulas["T_comm_ring"]
    value = ring(alpha=0.05, k=8, M=0.5, beta=1.0)
    assert value == pytest.approx(0.05 * 3 + 7 / 8 * 0.5)
    assert isinstance(value, float)
    assert report.formulas["S"].parameters == ("T_comm", "T_compute", "k")  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="missing: T_comm"):
        speedup(T_compute=1.0, k=4)


def test_formulas_expand_their_lets_and_constants() -> None:
    text = "let r = 2\nlet area = pi*r^2 + 0*x\nlet g = limit((k-1)/k, k, oo)\n"
    report = check_deck(make_deck([], (CodeBlock("formulas", text, 1),)))
    # 0*x vanishes, so x is not a parameter: the function takes the free symbols left.
    assert report.formulas["area"]() == pytest.approx(4 * math.pi)
    assert report.formulas["g"]() == 1.0
    assert report.diagnostics == ()


def test_broken_formula_is_reported_at_its_line() -> None:
    formulas = (CodeBlock("formulas", "let big = 10^10^10\nlet ok = 1\n", 7),)
    report = check_deck(make_deck([], formulas))
    assert messages(report) == [
        "7: formula 'big': number too large at column 13: the power has about 10,000,000,000 digits"
    ]
    assert [d.code for d in report.diagnostics] == ["AG219"]
    # a figure that calls the broken name is told why, at its own line
    assert set(report.formulas) == {"ok", "big"}
    with pytest.raises(
        FormulaNotCompiled, match="uses formula 'big', which has an error at line 7"
    ):
        report.formulas["big"]()


def test_counts() -> None:
    block = CodeBlock("check", "assert 1 == 1\nassert k > 0 for k in 1..5\nlet x = 1\n", 4)
    report = check_deck(make_deck([make_item(2, "", [block]), make_item(9)]))
    assert (report.items, report.checks, report.failed) == (2, 2, 0)
