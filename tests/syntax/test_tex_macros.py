"""Authors' TeX macros (format §17): the closed preamble reader and the expansion."""

from __future__ import annotations

import pytest

from ankigen.syntax.tex_macros import (
    MAX_EXPANSIONS,
    ExpansionError,
    Macro,
    expand,
)
from ankigen.syntax.tex_preamble import read_preamble

MACROS = {
    m.name: m
    for m in (
        Macro("\\RR", "\\mathbb{R}"),
        Macro("\\norm", "\\left\\lVert #1 \\right\\rVert", 1),
        Macro("\\inner", "\\langle #1, #2 \\rangle", 2),
        Macro("\\abs", "\\left|#2\\right|_{#1}", 2, default="x"),
        Macro("\\unit", "\\norm{#1}\\in\\RR", 1),
        Macro("\\loop", "\\loop+1"),
        Macro("\\ping", "\\pong"),
        Macro("\\pong", "\\ping"),
        Macro("\\link", "\\href{#1}{x}", 1),
    )
}


@pytest.mark.parametrize(
    ("tex", "expanded"),
    [
        ("x \\in \\RR", "x \\in \\mathbb{R}"),
        ("\\RR^n", "\\mathbb{R}^n"),
        ("\\RRR", "\\RRR"),  # another command: not this macro
        ("\\norm{x+y}", "\\left\\lVert x+y \\right\\rVert"),
        ("\\norm x", "\\left\\lVert x \\right\\rVert"),  # one token as its argument
        ("\\norm\\alpha", "\\left\\lVert \\alpha \\right\\rVert"),
        ("\\inner{u}{v}", "\\langle u, v \\rangle"),
        ("\\inner {u} {v}", "\\langle u, v \\rangle"),
        ("\\abs{y}", "\\left|y\\right|_{x}"),  # the optional argument's default
        ("\\abs[2]{y}", "\\left|y\\right|_{2}"),
        ("\\unit{v}", "\\left\\lVert v \\right\\rVert\\in\\mathbb{R}"),  # nesting
        ("\\norm{\\norm{x}}", "\\left\\lVert \\left\\lVert x \\right\\rVert \\right\\rVert"),
        ("\\norm{ {{c1::x}} }", "\\left\\lVert  {{c1::x}}  \\right\\rVert"),  # cloze kept
        ("a \\\\ \\RR", "a \\\\ \\mathbb{R}"),
    ],
)
def test_expansion(tex: str, expanded: str) -> None:
    assert expand(tex, MACROS) == expanded


@pytest.mark.parametrize(("tex", "name"), [("\\loop", "\\loop"), ("1 + \\ping", "\\ping")])
def test_a_macro_that_expands_forever_is_an_error_naming_it(tex: str, name: str) -> None:
    result = expand(tex, MACROS)
    assert isinstance(result, ExpansionError)
    assert result.macro == name
    assert f"macro {name} expands forever" in result.message


def test_expansion_is_bounded_in_size() -> None:
    double = {"\\d": Macro("\\d", "#1#1", 1)}
    result = expand("\\d{" * 40 + "x" + "}" * 40, double)
    assert isinstance(result, ExpansionError) and result.macro == "\\d"
    assert MAX_EXPANSIONS >= 40


def test_a_missing_argument_is_an_error() -> None:
    result = expand("\\inner{u}", MACROS)
    assert isinstance(result, ExpansionError)
    assert "takes 2 arguments" in result.message


def test_a_macro_may_expand_to_a_refused_command_which_render_then_refuses() -> None:
    # Expansion is not a judgement: the expanded TeX meets the TeX allow-list later.
    assert expand("\\link{javascript:alert(1)}", MACROS) == "\\href{javascript:alert(1)}{x}"


PREAMBLE = r"""
% the author's preamble
\newcommand{\RR}{\mathbb{R}}
\newcommand\CC{\mathbb{C}}
\newcommand*{\norm}[1]{\left\lVert #1 \right\rVert}
\renewcommand{\vec}[1]{\mathbf{#1}}
\newcommand{\abs}[2][x]{\left|#2\right|_{#1}}   % optional first argument
\def\inner#1#2{\langle #1,
  #2 \rangle}
\DeclareMathOperator{\Tr}{Tr}
\DeclareMathOperator*{\argmax}{arg\,max}
\newcommand{\percent}{50\%}
"""


def test_the_preamble_reader_reads_an_authors_usual_lines() -> None:
    preamble = read_preamble(PREAMBLE)
    assert preamble.problems == []
    got = {name: (m.body, m.args, m.default) for name, m in preamble.macros.items()}
    assert got == {
        "\\RR": ("\\mathbb{R}", 0, None),
        "\\CC": ("\\mathbb{C}", 0, None),
        "\\norm": ("\\left\\lVert #1 \\right\\rVert", 1, None),
        "\\vec": ("\\mathbf{#1}", 1, None),
        "\\abs": ("\\left|#2\\right|_{#1}", 2, "x"),
        "\\inner": ("\\langle #1,\n  #2 \\rangle", 2, None),
        "\\Tr": ("\\operatorname{Tr}", 0, None),
        "\\argmax": ("\\operatorname*{arg\\,max}", 0, None),
        "\\percent": ("50\\%", 0, None),
    }


@pytest.mark.parametrize(
    ("text", "line", "wording"),
    [
        (
            "\\newcommand{\\RR}{\\mathbb{R}}\n\\usepackage{amsmath}\n",
            2,
            "'\\usepackage{amsmath}' is not",
        ),
        ("\\newcommand{\\x}[1]{#2}\n", 1, "uses #2 but takes 1 argument"),
        ("\\newcommand{\\x}{unclosed\n", 1, "expected {body} after \\x"),
        ("\\input{other.tex}\n", 1, "is not"),
    ],
)
def test_anything_else_in_a_preamble_is_an_error_at_its_line(
    text: str, line: int, wording: str
) -> None:
    (problem,) = read_preamble(text).problems
    assert problem[0] == line and wording in problem[1]


def test_a_macro_named_by_a_symbol_is_expanded_on_its_own() -> None:
    """Once, ``\\!`` defined as a macro was expanded only beside a macro named by a word."""
    bang = {"\\!": Macro("\\!", "{!}"), "\\RR": Macro("\\RR", "R")}
    assert expand("a\\!b", bang) == "a{!}b"
    assert expand("a\\!b\\RR", bang) == "a{!}bR"


def test_a_starred_use_expands_the_macro_and_keeps_the_star() -> None:
    assert expand("\\RR*", MACROS) == "\\mathbb{R}*"


def test_any_white_space_before_an_argument_is_skipped_as_mathjax_skips_it() -> None:
    """Once, a non-breaking space or a CR was taken as the argument itself."""
    assert expand("\\norm\u00a0{x}", MACROS) == "\\left\\lVert x \\right\\rVert"
    assert expand("\\norm\r{x}", MACROS) == "\\left\\lVert x \\right\\rVert"
