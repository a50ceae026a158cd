"""Pathological input is refused or cut off, never allowed to hang a build."""

from __future__ import annotations

import threading

import pytest

from ankigen.build.timelimit import TimeLimitExceeded, call_with_time_limit
from tests.check.check_support import check_text, messages


def _spin() -> None:
    """Work that never ends: only the time limit can stop it (no clock needed to tell)."""
    while True:
        pass


def test_time_limit_on_the_main_thread() -> None:
    with pytest.raises(TimeLimitExceeded):
        call_with_time_limit(_spin, 0.1)
    assert call_with_time_limit(lambda: 42, 1.0) == 42


def test_time_limit_off_the_main_thread() -> None:
    outcome: list[object] = []

    def worker() -> None:
        try:
            call_with_time_limit(_spin, 0.1)
        except TimeLimitExceeded:
            outcome.append("timeout")
        outcome.append(call_with_time_limit(lambda: 7, 1.0))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(60.0)  # a hang guard only: the worker ends after its 0.1 s limit
    assert outcome == ["timeout", 7]


def test_errors_inside_the_time_limit_propagate() -> None:
    with pytest.raises(ZeroDivisionError):
        call_with_time_limit(lambda: 1 // 0, 1.0)


def test_slow_statement_is_reported_as_a_timeout() -> None:
    # Always slow: expanding this takes over 20 s, so a 1 s limit gives up on it
    # however fast the machine, and leaves the next statement time however busy.
    p = "(p + q + r + s + t)"
    slow = f"assert {p}^24 == {p}^23*{p} + 1"
    report = check_text(f"{slow}\nassert k == k\n", time_limit=1.0)
    assert messages(report) == [
        "1: gave up after 1 s; simplify the statement,"
        " give numbers with 'where', or raise check-time-limit in [tool.ankigen]"
    ]
    assert report.diagnostics[0].code == "AG213"
    assert (report.checks, report.failed) == (2, 1)


def test_long_statement_is_refused() -> None:
    line = "assert " + "+".join(["1"] * 1100) + " == 1100"
    assert messages(check_text(line)) == [
        f"1: syntax error at column 1: statement is {len(line)} characters long; at most 2000"
    ]


def test_deep_nesting_is_refused() -> None:
    line = "assert " + "(" * 60 + "1" + ")" * 60 + " == 1"
    [message] = messages(check_text(line))
    assert message.endswith("expression nested more than 50 levels deep")
    assert messages(check_text("assert " + "-" * 60 + "1 == 1")) == [
        "1: syntax error at column 58: expression nested more than 50 levels deep"
    ]


def test_huge_literal_exponent_is_refused() -> None:
    assert messages(check_text("assert 1e100000 > 1")) == [
        "1: syntax error at column 8: number '1e100000' is too large (exponent above 1000)"
    ]


def test_long_chain_of_lets_does_not_crash() -> None:
    lines = ["let a0 = 1"] + [f"let a{i} = a{i - 1} + a{i - 1}" for i in range(1, 1500)]
    report = check_text("\n".join([*lines, "assert a1499 > 0"]))
    assert report.failed == 1
    assert report.diagnostics[-1].message.startswith(
        ("expression too deeply nested", "gave up after", "number too large")
    )


def test_names_used_twice_are_built_once() -> None:
    # Without memoising, a60 would expand 2^60 times.
    lines = ["let a0 = x"] + [f"let a{i} = a{i - 1} + a{i - 1}" for i in range(1, 61)]
    # The time limit is the guard: a 2^60-fold expansion would exceed it.
    report = check_text("\n".join([*lines, "assert a60 == 2^60*x"]), time_limit=2.0)
    assert report.diagnostics == ()
