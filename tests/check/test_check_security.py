"""No author text runs as code; the parser never crashes on any input."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ankigen.check
from ankigen.check import _compile, _evaluate, _grammar, _lexer, _sympy
from ankigen.check._errors import StatementError
from ankigen.check._grammar import parse_statement
from tests.check.check_support import check_text

PWNED = Path("/tmp/pwned")

PAYLOADS = [
    "assert __import__('os').system('touch /tmp/pwned') == 0",
    'assert __import__("os").system("touch /tmp/pwned") == 0',
    "let x = __import__('os')",
    "assert ().__class__.__bases__[0].__subclasses__() == 0",
    "assert (lambda: __import__('os').system('touch /tmp/pwned'))() == 0",
    "assert exec('import os') == 0",
    "assert eval('1') == 1",
    "assert open('/etc/passwd') == 0",
    "assert x[0] == 1",
    "assert x.real == 1",
    "assert 'a' == 'a'",
    "assert [1][0] == 1",
    "assert {1: 2} == 0",
    "assert f'{1}' == 1",
    "assert 1 == 1; import os",
    "assert x @ y == 1",
    "assert __import__ == 0 where __import__ = os",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_is_refused_without_running(payload: str) -> None:
    PWNED.unlink(missing_ok=True)
    report = check_text(payload)
    assert report.failed == 1 or payload.startswith("let")
    assert any(d.is_error for d in report.diagnostics)
    assert not PWNED.exists()


def test_dunder_names_are_only_symbols() -> None:
    # A harmless name like __import__ is just a symbol, never looked up in Python.
    report = check_text("assert __import__ == __import__\nassert __class__ + 1 > __class__")
    assert [d.message for d in report.diagnostics] == [
        "cannot compare: free symbol __class__ remains after substitution;"
        " add it to 'where' or use '=='"
    ]


def test_no_evaluating_function_is_called_anywhere() -> None:
    forbidden = {"eval", "exec", "sympify", "parse_expr", "compile", "__import__", "S"}
    for module in (ankigen.check, _compile, _evaluate, _grammar, _lexer, _sympy):
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                assert name not in forbidden, f"{module.__name__} calls {name}"


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=120))
def test_parser_accepts_or_refuses_arbitrary_text(text: str) -> None:
    try:
        parse_statement(text)
    except StatementError as exc:
        assert str(exc)


_PIECES = st.sampled_from(
    [
        "assert",
        "let",
        "where",
        "within",
        "for",
        "in",
        "..",
        "k",
        "x",
        "S",
        "log",
        "limit",
        "sqrt",
        "min",
        "oo",
        "pi",
        "e",
        "1",
        "0.5",
        "1e3",
        "2",
        "+",
        "-",
        "*",
        "/",
        "^",
        "**",
        "(",
        ")",
        ",",
        "=",
        "==",
        "!=",
        "<",
        "<=",
        "~=",
        "%",
        "#",
        " ",
        "'",
        ".",
        "[",
        "lambda",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=25).map(" ".join))
def test_parser_on_token_soup(text: str) -> None:
    try:
        parse_statement(text)
    except StatementError as exc:
        assert str(exc)


_EXPRS = st.recursive(
    st.sampled_from(["k", "M", "2", "0", "0.5", "1", "pi", "oo", "e"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(st.sampled_from(["log", "sqrt", "exp", "abs", "sin"]), inner).map(
            lambda t: f"{t[0]}({t[1]})"
        ),
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(
    _EXPRS,
    st.sampled_from(["==", "!=", "<", ">=", "~="]),
    _EXPRS,
    st.sampled_from(["", " where k = 2", " where k = 0, M = 3", " for k in 0..3"]),
)
def test_checking_generated_statements_never_raises(
    left: str, op: str, right: str, clause: str
) -> None:
    report = check_text(f"assert {left} {op} {right}{clause}", time_limit=2.0)
    assert report.checks == 1
    for diagnostic in report.diagnostics:
        assert "\n" not in diagnostic.message
