"""What counts as a claim on the card: read from the parsed tokens, with line and column."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ankigen.model import Claim
from ankigen.parse.claim_numbers import read_number
from ankigen.parse.claims import formula_key, is_lone_symbol, number_value
from tests.check.claims_support import parse

TIMES = "\u00d7"


def claims(answer: str, question: str = "Q") -> list[tuple[str, bool]]:
    """The required claims of one reveal item, as (text, is formula)."""
    deck = parse(f"# T\n\n{question} ::: {answer}\n")
    return [(c.text, c.formula) for c in deck.items[0].claims if c.required]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("the effective batch is now 128, not 32", [("128", False), ("32", False)]),
        (f"It scales 3.3{TIMES} on 100 Gb.", [(f"3.3{TIMES}", False), ("100", False)]),
        ("efficiency $= 1$", [("= 1", True)]),
        ("$S/k = 4/4 = 1$", [("S/k = 4/4 = 1", True)]),
        ("so $\\eta_{new} = k\\,\\eta_{base}$", [("\\eta_{new} = k\\,\\eta_{base}", True)]),
        ("$T \\approx \\alpha$", [("T \\approx \\alpha", True)]),
        ("about 4x faster", [("4x", False)]),
        ("only 50% efficiency", [("50%", False)]),
        (
            "10,000 samples, ½ of them, 1e-3 s, 1/2 s",
            [("10,000", False), ("½", False), ("1e-3", False), ("1/2", False)],
        ),
        ("$$\nS = \\frac{T}{T/k + C}\n$$", [("S = \\frac{T}{T/k + C}", True)]),
    ],
)
def test_claims(answer: str, expected: list[tuple[str, bool]]) -> None:
    assert claims(answer) == expected


@pytest.mark.parametrize(
    "answer",
    [
        "False. Every device holds a full copy.",
        "use $\\eta$ and $\\beta$",
        "log2 and fp16, GPT-3, v1.5, c1",
        "see `x = 3` and `y = 2`",
        "![chart 2](figure:s02) <!-- id: s02-fig; tags: t1 -->",
        "[link](https://example.com/2024/page=3)",
        "<https://example.com/2024>",
        "$\\left( a \\right)$",
        "a ≈ b in words",
        "$x \\\\le y$",  # a line break, then the letters "le": no relation (once read as \\le)
        "$a \\> b$",  # \\> is a medium space, not '>' (once read as a relation)
    ],
)
def test_no_claims(answer: str) -> None:
    assert claims(answer) == []


def test_text_labels_are_read_to_their_closing_brace() -> None:
    """A ``\\text`` label's numbers are text the learner reads, however deep its braces nest
    (once read only one level deep: the 8 below was a number of the formula)."""
    assert claims("$t \\text{on {8 {big} GPUs}}$") == [
        ("t \\text{on {8 {big} GPUs}}", True),
        ("8", False),
    ]
    # \\\\ is a line break: the letters after it are no \\text label (once they were).
    assert claims("$t \\\\text{on 8 GPUs}$") == [("t \\\\text{on 8 GPUs}", True)]


def test_a_line_break_before_spacing_is_no_lone_symbol() -> None:
    """``\\\\ k`` is a line break and a k: a formula, not one symbol (``\\, k`` is one)."""
    assert is_lone_symbol("\\, k")
    assert not is_lone_symbol("\\\\ k")  # once read as "\\k" after dropping "\\ "
    assert not is_lone_symbol("\\\\,\\:a")


def test_display_formula_on_its_own_lines_is_one_claim() -> None:
    deck = parse("# T\n\nQ\n::: The formula:\n\n$$S = \\frac{T}{T/k + C}$$\n")
    [claim] = [c for c in deck.items[0].claims if c.required]
    assert claim == Claim("S = \\frac{T}{T/k + C}", True, 6, 1, True, everywhere=True)


def test_display_formula_after_its_dollars_is_placed_at_them() -> None:
    deck = parse("# T\n\nQ\n::: The formula:\n\n$$\nS = k/2\n$$\n")
    [claim] = [c for c in deck.items[0].claims if c.required]
    assert (claim.text, claim.line, claim.column) == ("S = k/2", 6, 1)


def test_indented_code_and_lists_are_read_as_markdown_reads_them() -> None:
    # The regex coverage of version 1 read numbers in indented code as claims.
    text = "# T\n\nQ\n::: Answer:\n\n    code 256 and 512\n\n1. step one\n2. step 50%\n"
    deck = parse(text)
    assert [(c.text, c.line, c.column) for c in deck.items[0].claims if c.required] == [
        ("50%", 9, 9)
    ]


def test_question_numbers_are_premises() -> None:
    deck = parse("# T\n\nWe use 4 GPUs at batch 32. ::: So 128.\n")
    shown = [(c.text, c.required) for c in deck.items[0].claims]
    assert shown == [("4", False), ("32", False), ("128", True)]


def test_cloze_text_and_extra_are_claims_and_markers_are_not() -> None:
    deck = parse("# T\n\nIt holds {{c1::37}} and $x = {{c2::2}}$. ::: Extra 5.\n")
    shown = [(c.text, c.column) for c in deck.items[0].claims if c.required]
    assert shown == [("37", 16), ("x = {{c2::2}}", 25), ("5", 52)]


def test_columns_in_callouts_and_after_escapes() -> None:
    deck = parse("# T\n\n> [!note] N\n> Q ::: a \\$ sign, then 12 and $k = 3$\n")
    shown = [(c.text, c.line, c.column) for c in deck.items[0].claims if c.required]
    assert shown == [("12", 4, 25), ("k = 3", 4, 32)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("128", Fraction(128)),
        ("50%", Fraction(1, 2)),
        (f"3.3{TIMES}", Fraction(33, 10)),
        ("3.3x", Fraction(33, 10)),
        ("0.05", Fraction(1, 20)),
        ("1/2", Fraction(1, 2)),
        ("½", Fraction(1, 2)),
        ("1e-3", Fraction(1, 1000)),
        ("10,000", Fraction(10_000)),
        ("12.5%", Fraction(1, 8)),
        ("-3", Fraction(-3)),  # the card's minus sign is part of what it says
        ("\u22120.5", Fraction(-1, 2)),
    ],
)
def test_quoted_number_values(text: str, value: Fraction) -> None:
    assert number_value(text) == value


@pytest.mark.parametrize(
    "text", ["", "128 samples", "1,00", "1/0", "x", "1e5000", "- 3", "--3", "1,2345"]
)
def test_not_a_quotable_number(text: str) -> None:
    assert number_value(text) is None


def test_formulas_match_without_cloze_markers_or_white_space() -> None:
    card = "S = {{c1::\\frac{T_{compute} }{\\frac{T_{compute} }{k} + T_{comm} } }}"
    assert formula_key(card) == formula_key(
        "S=\\frac{T_{compute}}{\\frac{T_{compute}}{k} + T_{comm}}"
    )
    assert formula_key("x = {{c1::a::hint}}") == "x=a"


def test_an_html_block_s_text_is_read_and_its_tags_are_not() -> None:
    # The card shows an HTML block's text: a number there is a claim, at its column; the
    # digits of a tag (`h2`, `width="3"`) and of a comment are not shown, so no claim.
    deck = parse(
        "# T\n\nQ ::: A\n\n<details><summary>Batch</summary>\n"
        '<b>256</b> samples <img src="x.png" width="3"> <!-- 7 -->\n</details>\n'
    )
    shown = [(c.text, c.line, c.column) for c in deck.items[0].claims if c.required]
    assert shown == [("256", 6, 4)]


def test_a_tooltip_is_read_as_alt_text_is() -> None:
    # Shown when pointed at: a claim at level `all`, as an image's alt text (not required).
    deck = parse('# T\n\nQ ::: the <abbr title="256 samples">batch</abbr> size\n')
    found = [(c.text, c.line, c.column, c.required) for c in deck.items[0].claims]
    assert found == [("256", 3, 24, False)]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("dozen", Fraction(12)),
        ("one tenth", Fraction(1, 10)),
        ("an eighth", Fraction(1, 8)),
        ("two fifths", Fraction(2, 5)),
        ("tenfold", Fraction(10)),
        ("⅒", Fraction(1, 10)),
        ("Ⅳ", Fraction(4)),
        ("④", Fraction(4)),
    ],
)
def test_more_number_words_and_characters_are_read(text: str, value: Fraction) -> None:
    assert number_value(text) == value
    deck = parse(f"---\nclaims: all\n---\n# T\n\nQ ::: about {text} of them\n")
    assert [c.text for c in deck.items[0].claims] == [text]


@pytest.mark.parametrize("text", ["double k", "double precision", "the fifth day"])
def test_verbs_names_and_ordinals_are_no_numbers(text: str) -> None:
    deck = parse(f"---\nclaims: all\n---\n# T\n\nQ ::: {text}\n")
    assert deck.items[0].claims == ()


@pytest.mark.parametrize(
    ("text", "value"),
    [("128k", Fraction(128_000)), ("4k", Fraction(4000)), ("2.5k", Fraction(2500))],
)
def test_a_glued_k_is_a_thousand_times_the_number(text: str, value: Fraction) -> None:
    assert number_value(text) == value


def test_a_glued_unit_is_read_as_a_spaced_one() -> None:
    deck = parse("---\nclaims: all\n---\n# T\n\nQ ::: 1.5kg on a 10Gb link, 128k tokens\n")
    found = [(c.text, c.unit) for c in deck.items[0].claims]
    assert found == [("1.5", "kg"), ("10", "Gb"), ("128k", "tokens")]


def test_a_formula_s_labels_are_part_of_its_notation() -> None:
    from ankigen.check._notation import notation_key

    brace = r"T \approx \underbrace{\alpha \log_2 k}_{\text{hops grow with } %s}"
    assert notation_key(brace % "k") == notation_key(brace % "k")
    assert notation_key(brace % "k") != notation_key(brace % "k^2")
    # A label's text is read as text (its numbers are claims of their own), not notation.
    assert notation_key(brace % "k") == notation_key(brace.replace("hops", "jumps") % "k")
    assert notation_key(r"S = k") == notation_key(r"S = k\text{ squared}")


@pytest.mark.parametrize(
    ("text", "same_as"), [("50 percent", "50%"), (f"3.3 {TIMES}", f"3.3{TIMES}"), ("4X", "4x")]
)
def test_another_spelling_of_a_percent_or_a_factor_is_the_same_number(
    text: str, same_as: str
) -> None:
    assert number_value(text) == number_value(same_as)
    assert read_number(text) is not None and read_number(same_as) is not None
    assert read_number(text).kind == read_number(same_as).kind  # type: ignore[union-attr]
