"""The TeX reader of quoted formulas never evaluates, never crashes, and refuses by name."""

from __future__ import annotations

import ast
import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ankigen.check import _expressions, _notation, _tex, _tex_base, _tex_commands, _tex_lexer
from ankigen.check._errors import StatementError
from ankigen.check._grammar import parse_statement
from ankigen.check._notation import notation_key
from ankigen.check._tex import read_tex
from ankigen.parse import claims
from tests.check.check_support import check_text


def test_no_evaluating_function_is_called_in_the_tex_reader() -> None:
    forbidden = {"eval", "exec", "sympify", "parse_expr", "compile", "__import__", "latex2sympy"}
    for module in (_tex, _tex_base, _tex_commands, _tex_lexer, _expressions, _notation, claims):
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name == "compile" and getattr(getattr(func, "value", None), "id", "") == "re":
                    continue  # a regular expression, not Python's compile()
                assert name not in forbidden, f"{module.__name__} calls {name}"
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [alias.name for alias in node.names]
                module_name = getattr(node, "module", "") or ""
                assert "sympy" not in module_name and "sympy" not in names


@pytest.mark.parametrize(
    ("tex", "command", "column"),
    [
        ("T \\propto \\log_2 k", "\\propto", 3),
        ("\\int_{0}^{1} x", "\\int", 1),
        ("k \\subset \\{1, 2\\}", "\\subset", 3),
        ("\\input{/etc/passwd}", "\\input", 1),
        ("\\def\\x{1} \\x", "\\def", 1),
    ],
)
def test_a_command_outside_the_subset_is_named_with_its_column(
    tex: str, command: str, column: int
) -> None:
    with pytest.raises(StatementError) as raised:
        read_tex(tex, 1)
    assert f"'{command}'" in str(raised.value)
    assert raised.value.column == column
    assert raised.value.code == "AG204"


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80))
def test_reader_accepts_or_refuses_arbitrary_text(tex: str) -> None:
    try:
        read_tex(tex, 1)
    except StatementError as exc:
        assert str(exc) and exc.column >= 1


_PIECES = st.sampled_from(
    [
        "\\frac",
        "\\dfrac",
        "\\sqrt",
        "[",
        "]",
        "{",
        "}",
        "\\{",
        "\\}",
        "\\left(",
        "\\right)",
        "(",
        ")",
        "^",
        "_",
        "T_{compute}",
        "k",
        "2",
        "0.5",
        "\\alpha",
        "λ",
        "\\log_2",
        "\\ln",
        "\\cdot",
        "\\times",
        "+",
        "-",
        "\u2212",  # the minus sign
        "/",
        "=",
        "<",
        "\\le",
        "\\approx",
        "\\neq",
        "\\infty",
        "\\,",
        "\\text{s}",
        "\\underbrace",
        "50\\%",
        "{{c1::",
        "}}",
        " ",
        # format section 18
        "\\sum_{i=1}^{k}",
        "\\prod_{i=1}^{n}",
        "\\sum",
        "\\binom",
        "!",
        "\\lim_{k \\to \\infty}",
        "\\to",
        "\\in",
        "\\sim",
        "g_{i}",
        ",",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=25).map(" ".join))
def test_reader_on_tex_soup(tex: str) -> None:
    try:
        read_tex(tex, 1)
    except StatementError as exc:
        assert str(exc)
    try:
        parse_statement(f"assert ${tex}$ where k = 2")
    except StatementError as exc:
        assert str(exc)


@settings(max_examples=40, deadline=None)
@given(st.lists(_PIECES, min_size=1, max_size=12).map(" ".join))
def test_checking_a_quoted_soup_never_raises(tex: str) -> None:
    report = check_text(f"assert ${tex}$ == 1 where k = 2, T_compute = 3", time_limit=2.0)
    assert report.checks == 1
    for diagnostic in report.diagnostics:
        assert "\n" not in diagnostic.message


def test_deep_nesting_is_refused_not_a_recursion_error() -> None:
    with pytest.raises(StatementError, match="nesting deeper"):
        read_tex("{" * 500 + "k" + "}" * 500, 1)
    with pytest.raises(StatementError, match="nesting deeper"):
        read_tex("\\sqrt{" * 300 + "k" + "}" * 300, 1)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_PIECES, max_size=20).map(" ".join)))
def test_notation_keys_never_raise(tex: str) -> None:
    # the key a quote and a card formula are matched by is total: any text has one
    assert isinstance(notation_key(tex), str)


def test_a_formula_outside_the_grammar_is_keyed_by_its_tokens_as_written() -> None:
    # the reader splits the number of x^23 (a script is one digit) before it fails at
    # \foo; the key is still that of the tokens as the formula writes them
    assert notation_key(r"x^23 \foo") == notation_key(r"x^{23} \foo") == r"t:x ^ 23 \foo"


def test_nested_sums_are_refused_not_a_recursion_error() -> None:
    with pytest.raises(StatementError, match="nesting deeper"):
        read_tex("\\sum_{i=1}^{k} " * 200 + "i", 1)
