"""Formula rendering: seed formulas, determinism, baseline, errors, clozes.

Speed is measured by benchmarks/bench.py, not asserted here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ankigen.parse import parse_file
from ankigen.render import (
    FormulaError,
    cloze_variants,
    formula_img_html,
    math_cloze_html,
    render_formula,
    tex_problem,
)

SEED_FILE = Path(__file__).resolve().parents[2] / "content" / "distributed-training.md"
SEED = [
    r"S = \frac{T_{compute}}{\frac{T_{compute}}{k} + T_{comm}}",
    r"T_{comm} \approx \underbrace{\alpha \log_2 k}_{\text{latency: hops grow with } k}"
    r" + \underbrace{\frac{k-1}{k} \cdot \frac{M}{\beta}}_{\text{bandwidth term}}",
    r"\eta_{new} \cdot \frac{1}{k} \sum_{i} g_i = \eta_{base} \sum_i g_i"
    r" \implies \eta_{new} = k\,\eta_{base}",
    r"k \in \{1, 2, 4, 8\}",
    r"\sqrt{k}",
    r"\theta_{t+5}",
    r"[W_1\ W_2]",
    r"- \eta_{base} \sum_{i=1}^{k} g_i",
    r"k \to \infty",
    r"\sim \log_2 k",
    r"b \times k",
    r"\eta_{new} = k \cdot \eta_{base}",
    r"\frac{k - 1}{k}",
    r"T_{comm} \to \alpha \log_{2} k + M / \beta",
]
ENVIRONMENTS = [
    r"\begin{bmatrix} a & b \\ c & d \end{bmatrix}",
    r"f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}",
    r"\boxed{E = mc^2}",
    r"\overbrace{a + b}^{\text{sum}}",
]


def _seed_deck_formulas() -> list[tuple[str, bool]]:
    """Every formula of the real seed deck, as the build draws it (cloze variants too)."""
    deck = parse_file(SEED_FILE, SEED_FILE.parent).deck
    assert deck is not None
    drawn: list[tuple[str, bool]] = []
    for item in deck.items:
        for math in (*item.front.maths, *item.back.maths):
            if "{{c" in math.tex:
                variants = cloze_variants(math.tex)
                drawn += [(t, math.display) for t in (variants.back, *variants.fronts.values())]
            else:
                drawn.append((math.tex, math.display))
    return sorted(set(drawn))


@pytest.mark.parametrize(("tex", "display"), _seed_deck_formulas())
def test_every_formula_of_the_seed_deck_renders(tex: str, display: bool) -> None:
    rendered = render_formula(tex, display=display)
    assert b"<svg" in rendered.svg and rendered.width_em > 0


@pytest.mark.parametrize("tex", SEED + ENVIRONMENTS)
def test_every_seed_formula_renders_to_svg(tex: str) -> None:
    r = render_formula(tex, display=False)
    assert r.svg.startswith(b"<?xml") or r.svg.startswith(b"<svg")
    assert b"<svg" in r.svg
    assert r.width_em > 0.5 and r.height_em > 0.5
    assert 0 <= r.depth_em < r.height_em


def test_mathjax_draws_every_formula() -> None:
    for tex in SEED + ENVIRONMENTS:
        assert render_formula(tex, display=True).renderer == "mathjax"


@pytest.mark.parametrize("tex", [SEED[0], SEED[1], ENVIRONMENTS[0]])
def test_same_bytes_twice(tex: str) -> None:
    a = render_formula(tex, display=False)
    b = render_formula(tex, display=False)
    assert a == b
    assert b"Date" not in a.svg and b"<dc:date" not in a.svg


def test_svg_is_black_paths_on_transparent() -> None:
    svg = render_formula(SEED[0], display=False).svg.decode()
    assert "<text" not in svg  # glyphs are paths: no font needed on the phone
    assert "currentColor" not in svg  # an <img> has no text colour to take
    assert set(re.findall(r'fill="([^"]*)"', svg)) == {"#000000"}
    assert "<rect" in svg and "background" not in svg


def test_sizes_are_in_em_of_the_text() -> None:
    x = render_formula("x", display=False)
    assert 0.4 < x.width_em < 0.8  # one italic letter is about half an em wide
    assert 0.4 < x.height_em < 1.0
    sub = render_formula(r"\theta_{t+5}", display=False)
    assert sub.depth_em > 0.1  # the subscript hangs below the baseline
    # the root sign hangs a little below the baseline, as TeX's does
    assert render_formula(r"\sqrt{k}", display=False).depth_em < 0.35


def test_img_html_sits_on_the_baseline() -> None:
    r = render_formula(r"\theta_{t+5}", display=False)
    tag = formula_img_html("a.svg", r, display=False, alt=r"\theta_{t+5}")
    m = re.search(r'style="width:([\d.]+)em;vertical-align:(-[\d.]+)em"', tag)
    assert m and float(m.group(1)) == pytest.approx(r.width_em, abs=1e-3)
    assert float(m.group(2)) == pytest.approx(-r.depth_em, abs=1e-3)
    assert 'class="ag-math"' in tag and "{" not in tag and "}" not in tag
    block = formula_img_html("a.svg", r, display=True, alt="x")
    assert 'class="ag-math ag-display"' in block and "vertical-align" not in block


def test_synonyms_draw_alike() -> None:
    assert render_formula(r"a \le b", display=False) == render_formula(r"a \leq b", display=False)
    for tex in [
        r"a \ge b",
        r"\lVert x \rVert",
        r"p \iff q",
        r"\text{two words}",
        r"\left( x \right)",
    ]:
        render_formula(tex, display=False)


def test_display_style_draws_larger_fractions_and_sums() -> None:
    for tex in [r"\frac{a}{b}", r"\sum_{i=1}^{n} x_i"]:
        assert (
            render_formula(tex, display=True).height_em
            > render_formula(tex, display=False).height_em
        )


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        (r"\foo + 1", r"\foo is not a command ankigen draws"),
        (r"\frac{a}{b", "unbalanced braces: a '{' is never closed"),
        (r"a}", "unbalanced braces: a '}' has no matching '{'"),
        (r"\underbrace{x}_{\foo}", r"\foo is not a command ankigen draws"),
        (r"\begin{bmatrix} \foo \end{bmatrix}", r"\foo is not a command ankigen draws"),
        (r"\begin{tikzpicture}x\end{tikzpicture}", r"\begin{tikzpicture} is not an environment"),
        (r"\begin{bmatrix} a \end{pmatrix}", r"\begin{bmatrix} is closed by \end{pmatrix}"),
        (r"\begin{cases} a", r"\begin{cases} is never closed"),
        (r"\underbrace{x}_{\color{red}{y}}", r"\color is not a command ankigen draws"),
        (r"x^{2}^{3}", "Double exponent: use braces to clarify"),
        (r"a & b", "Misplaced &: write & only inside an environment such as aligned"),
        (r"\frac{1}", r"Missing argument for \frac: give it its argument in braces"),
        (r"\bm{x}", r"\bm is not defined in MathJax 3: write \boldsymbol{...}"),
        ("  ", "empty formula"),
        (r"{{c1::k}}", "cloze markers"),
    ],
)
def test_errors_name_the_construct(tex: str, message: str) -> None:
    with pytest.raises(FormulaError) as info:
        render_formula(tex, display=False)
    assert message in str(info.value)


def test_messages_never_show_a_parsers_internals() -> None:
    for tex in [r"\frac{1}", r"x^{2}^{3}", r"\left( x", r"a_b_c", r"\foo"]:
        with pytest.raises(FormulaError) as info:
            render_formula(tex, display=False)
        assert "Expected" not in str(info.value) and "{" not in str(info.value)[:1]
        assert "Error" not in str(info.value) and "at <anonymous>" not in str(info.value)


@pytest.mark.parametrize(
    ("tex", "problem"),
    [
        (r"\frac{a}{b}", None),
        (r"{{c1::\frac{a}{b} }}", None),
        (r"{{c1::k::hint}} + {{c2::x}}", None),
        (r"{{c1::\frac{a}{b}}}", "write a space before the '}}'"),
        (r"{{c1::x_{a}}}", "write a space before the '}}'"),
        (r"{{c1::\frac{T_{x}}{k} }}", "Anki ends a cloze at the first '}}'"),
        (r"{{c::x}}", "needs a number from 1 up"),
        (r"{{C1::x}}", "must be lower case"),
        (r"{{c1::}}", "empty cloze"),
        (r"{{c1::  ::hint}}", "empty cloze"),
        (r"{{c1::x", "never closed"),
        (r"\frac{a}{b", "unbalanced braces"),
        (r"\begin{a}x\end{b}", r"\begin{a} is closed by \end{b}"),
        (r"\end{a}", r"\end{a} without \begin{a}"),
    ],
)
def test_tex_problem(tex: str, problem: str | None) -> None:
    found = tex_problem(tex)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found


def test_cloze_variants_hide_exactly_one_cloze() -> None:
    v = cloze_variants(r"\eta_{new} = {{c1::k}}\,\eta_{base}")
    assert v.back == r"\eta_{new} = k\,\eta_{base}"
    assert v.fronts == {1: r"\eta_{new} = {[\ldots]}\,\eta_{base}"}
    two = cloze_variants(r"{{c2::a::first}} + {{c1::b}} + {{c2::c}}")
    assert two.back == "a + b + c"
    assert two.fronts[1] == r"a + {[\ldots]} + c"
    assert two.fronts[2] == r"{[\text{first}]} + b + {[\ldots]}"
    hint = cloze_variants(r"x = {{c1::k::a_b \& c^~ $1}}")
    assert hint.fronts[1] == r"x = {[\text{a_b \\& c^~ \$1}]}"
    for tex in [*two.fronts.values(), two.back, *hint.fronts.values()]:
        render_formula(tex, display=False)


def test_front_and_back_images_differ() -> None:
    v = cloze_variants(r"\eta_{new} = {{c1::k}}\,\eta_{base}")
    back = render_formula(v.back, display=False)
    front = render_formula(v.fronts[1], display=False)
    assert back.svg != front.svg
    assert front.width_em > back.width_em  # "[...]" is wider than "k"


def test_math_cloze_html_shape() -> None:
    out = math_cloze_html('<img src="b.svg">', {2: '<img src="f2.svg">', 1: '<img src="f1.svg">'})
    assert out == (
        '<span class="ag-mc">{{c1::<img src="b.svg">::<img src="f1.svg">}}'
        '{{c2::<img src="b.svg">::<img src="f2.svg">}}'
        '<span class="ag-mc-all"><img src="b.svg"></span></span>'
    )
