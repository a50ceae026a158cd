"""math: mathjax passes only allow-listed TeX; defining commands are refused in both modes."""

from __future__ import annotations

import pytest

from ankigen.render import tex_problem

DEFINING = [
    r"\def\a{b}",
    r"\gdef\a{b}",
    r"\let\frac\sqrt",
    r"\newcommand{\x}{y}",
    r"\newcommand*{\frac}[2]{#1}",
    r"\renewcommand*{\sqrt}{x}",
    r"\providecommand{\x}{y}",
    r"\DeclareMathOperator{\x}{y}",
    r"\DeclareMathOperator*{\frac}{x}",
    r"\Newextarrow{\sqrt}{1,1}{0x2192}",
    r"\newenvironment{x}{a}{b}",
    r"\href{javascript:alert(1)}{x}",
    r"\require{html}",
    r"\htmlStyle{position:fixed}{x}",
]


@pytest.mark.parametrize("mathjax", [False, True])
@pytest.mark.parametrize("tex", DEFINING)
def test_commands_that_define_link_or_load_are_refused(tex: str, mathjax: bool) -> None:
    problem = tex_problem(tex, mathjax=mathjax) or ""
    assert "is not allowed in a formula" in problem
    assert tex.split("{")[0].split("\\")[1] in problem


@pytest.mark.parametrize(
    "tex",
    [
        r"\frac{a}{b} + \sqrt[3]{x} \le \alpha_{i}^{2}",
        r"\begin{pmatrix} a & b \\[2pt] c & d \end{pmatrix}",
        r"\operatorname*{arg\,max}_x f(x) \to \infty",
        r"\eta_{new} = {{c1::k}}\,\eta_{base}",
        r"\underbrace{x}_{\text{label}} \cdot \mathbb{R}",
    ],
)
def test_standard_math_passes_in_mathjax_mode(tex: str) -> None:
    assert tex_problem(tex, mathjax=True) is None


@pytest.mark.parametrize(
    ("tex", "problem"),
    [
        (r"\foo", r"\foo is not a command ankigen passes to MathJax"),
        (r"\color{red}{x}", r"\color is not a command"),
        (r"\begin{tikzpicture}x\end{tikzpicture}", r"\begin{tikzpicture} is not an environment"),
        (r"a \) \href{x}{y} \(", r"'\)' is not allowed in a formula"),
    ],
)
def test_everything_else_is_refused_in_mathjax_mode(tex: str, problem: str) -> None:
    assert problem in (tex_problem(tex, mathjax=True) or "")


def test_unknown_commands_are_left_to_the_renderer_in_image_mode() -> None:
    assert tex_problem(r"\foo", mathjax=False) is None
