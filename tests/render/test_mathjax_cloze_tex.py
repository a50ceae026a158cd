"""The TeX ankigen writes for a clozed formula in mathjax mode, card by card.

Each card's front and back are whole formulas in which only ankigen's
``\\class{cloze}{...}`` marks the cloze's part; nothing in them may look like
cloze syntax to Anki (``{{``, ``}}``, ``::``), since they stand inside a cloze.
"""

from __future__ import annotations

import pytest

from ankigen.render._tex_syntax import cloze_proof, mathjax_cloze_tex  # internals, under test

SPEEDUP = r"S = \frac{ {{c1::T_1}} }{ {{c2::T_k::time on k}} }"


def test_each_card_marks_only_its_own_cloze() -> None:
    whole, fronts, backs = mathjax_cloze_tex(SPEEDUP)
    assert whole == r"S = \frac{ T_1 }{ T_k }"
    assert fronts == {
        1: r"S = \frac{ \class{cloze}{[\ldots]} }{ T_k }",
        2: r"S = \frac{ T_1 }{ \class{cloze}{[\text{time on k}]} }",
    }
    assert backs == {
        1: r"S = \frac{ \class{cloze}{T_1} }{ T_k }",
        2: r"S = \frac{ T_1 }{ \class{cloze}{T_k} }",
    }


@pytest.mark.parametrize(
    "tex",
    [
        r"\mathrm{SE} = {{c1::\frac{\sigma}{\sqrt{n} } }}",
        r"x^{ {{c1::2}} } = {{c2::\{a\} }}",
        r"a \:: b = {{c1::c}}",
    ],
)
def test_nothing_in_the_tex_reads_as_cloze_syntax(tex: str) -> None:
    whole, fronts, backs = mathjax_cloze_tex(tex)
    for written in (whole, *fronts.values(), *backs.values()):
        assert "{{" not in written and "}}" not in written and "::" not in written


def test_cloze_proof_spaces_every_pair_only() -> None:
    assert cloze_proof(r"\frac{a}{\sqrt{b}}") == r"\frac{a}{\sqrt{b} }"
    assert cloze_proof("}}}") == "} } }"
    assert cloze_proof(r"{{x}}:\colon") == r"{ {x} }:\colon"


def test_a_part_that_is_no_group_stays_plain_on_the_back() -> None:
    _, fronts, backs = mathjax_cloze_tex(r"\begin{aligned} a &= {{c1::b & c}} \end{aligned}")
    assert backs[1] == r"\begin{aligned} a &= b & c \end{aligned}"
    assert r"\class{cloze}{[\ldots]}" in fronts[1]


def test_a_hint_holding_tex_stays_tex() -> None:
    _, fronts, _ = mathjax_cloze_tex(r"y = {{c1::k::\alpha}}")
    assert fronts[1] == r"y = \class{cloze}{[\alpha]}"
