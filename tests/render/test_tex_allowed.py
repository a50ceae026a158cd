"""Both math modes pass only allow-listed TeX (image mode draws with MathJax too).

Defining, linking, styling and loading commands are refused with their own message.
"""

from __future__ import annotations

import pytest

from ankigen.render import tex_problem
from ankigen.syntax import tex as syntax_tex

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


@pytest.mark.parametrize("tex", DEFINING)
def test_commands_that_define_link_or_load_are_refused(tex: str) -> None:
    problem = tex_problem(tex) or ""
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
        r"\begin{align*} a &= b \\ c &= d \end{align*}",
        r"a \equiv b \pmod{n} + a \bmod b + a \mod b + {a \over b} + \sqrt 3 + x \tag{1}",
        "a = b\nc = d",
        r"\text{if $x > 0$}",
    ],
)
def test_standard_math_passes(tex: str) -> None:
    assert tex_problem(tex) is None


@pytest.mark.parametrize(
    ("tex", "problem"),
    [
        (r"\foo", r"\foo is not a command ankigen draws"),
        (r"\bm{x}", r"\bm is not defined in MathJax 3: write \boldsymbol{...}"),
        (r"\color{red}{x}", r"\color is not a command"),
        (r"\begin{tikzpicture}x\end{tikzpicture}", r"\begin{tikzpicture} is not an environment"),
        (r"a \) \href{x}{y} \(", r"'\)' is not allowed in a formula"),
    ],
)
def test_everything_else_is_refused(tex: str, problem: str) -> None:
    assert problem in (tex_problem(tex) or "")


def test_every_delimiter_symbol_starts_with_a_backslash() -> None:
    # The allow-list skips one-character tokens: none may be a delimiter symbol.
    assert all(symbol.startswith("\\") for symbol in syntax_tex.DELIMITER_SYMBOLS)
