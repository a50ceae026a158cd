"""Every check error points at a column: its own, else the statement's first character."""

from __future__ import annotations

import pytest

from ankigen.check import DEFAULT_TIME_LIMIT, check_deck
from ankigen.model import CodeBlock
from tests.check.check_support import check_text, make_deck


def columns(text: str) -> list[tuple[int, int, str]]:
    """(line, column, code) of each error of one check block starting at line 1."""
    report = check_text(text, first_line=1)
    return [(d.line, d.column, d.code) for d in report.diagnostics if d.is_error]


def test_a_failed_check_points_at_its_statement_after_the_indentation() -> None:
    assert columns("  assert 2 == 3\n") == [(1, 3, "AG210")]


def test_a_use_of_a_broken_definition_points_at_the_name() -> None:
    found = columns("let a = 1 +\nassert x == 1 where x = a\n")
    assert found[1:] == [(2, 25, "AG212")]


def test_a_problem_inside_a_let_body_points_at_the_statement_not_the_body() -> None:
    # the column of 'a' on line 1 means nothing on line 3: the statement's start stands
    found = columns("let a = 1 +\nlet b = a + 1\n assert b == 2\n")
    assert found[1:] == [(3, 2, "AG212")]


@pytest.mark.parametrize(
    ("statement", "column"),
    [
        ("assert 1/0 == 1", 9),
        ("assert 0^(-1) == 1", 9),
        ("assert foo(1) == 1", 8),
        ("assert  sqrt(1, 2) == 1", 9),
        ("assert limit(1, 2, 3) == 1", 8),
    ],
)
def test_a_problem_at_a_column_is_reported_at_it(statement: str, column: int) -> None:
    [(line, found, _)] = columns(statement + "\n")
    assert (line, found) == (1, column)


def test_a_second_definition_points_at_its_name() -> None:
    assert columns("let a = 1\n  let  a = 2\n") == [(2, 8, "AG217")]


def test_an_assert_in_a_formulas_block_points_at_the_assert() -> None:
    block = CodeBlock("formulas", "let a = 1\n  assert a == 1\n", 1)
    report = check_deck(make_deck([], [block]), time_limit=DEFAULT_TIME_LIMIT)
    assert [(d.line, d.column, d.code) for d in report.diagnostics] == [(2, 3, "AG216")]


def test_a_problem_in_one_round_of_a_for_keeps_its_column() -> None:
    [(line, column, _)] = columns("assert 1/(n - 1) > 0 for n in 1..5\n")
    assert (line, column) == (1, 9)


@pytest.mark.parametrize(
    ("statement", "column"),
    [
        ("assert x > 0 for x in 1..100000000", 23),  # too many values: at the range
        ("assert x > 0 for x in 5..1", 23),  # an empty range
        ("let pi = 3", 5),  # a constant redefined: at its name
        ("  assert pi == pi where sqrt = 2", 25),  # a function bound: at its name
    ],
)
def test_a_statement_refused_as_a_whole_points_at_what_it_names(
    statement: str, column: int
) -> None:
    [(line, found, _)] = columns(statement + "\n")
    assert (line, found) == (1, column)
