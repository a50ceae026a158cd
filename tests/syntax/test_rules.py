"""The near-miss rules of each syntax module, on plain strings (format section 13)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ankigen.parse.rules import mark
from ankigen.syntax import cloze, habits, separator


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The {{c1:median}} is", cloze.ONE_COLON),
        ("The {c1::median}} is", cloze.ONE_BRACE),
        ("The {{ c1::median }} is", cloze.SPACED),
        ("The {{c 1::x}} is", cloze.SPACED),
        ("The {{c1 ::x}} is", cloze.SPACED),
        ("The {{C2:x}} is", cloze.ONE_COLON),
    ],
)
def test_cloze_near_miss(text: str, code: str) -> None:
    assert [f.code for f in cloze.near_misses(text)] == [code]


@pytest.mark.parametrize(
    "text",
    [
        "{{c1::median}}",
        "{{c1::x::hint}}",
        "{{c1::outer {{c2::inner}} text}}",
        r"{{c1::\frac{a}{b} }}",
        r"\{c1: c1 > 0\}",  # a set in TeX: one brace and one colon is too far to guess
        "x_{c1} + y^{{2}}",
        "{{c::x}}",  # no number: an error of its own, not a near miss
    ],
)
def test_cloze_look_alikes_are_not_near_misses(text: str) -> None:
    assert cloze.near_misses(text) == []


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("What is a mode?:::The most frequent value.", separator.GLUED),
        ("What is a mode? :::The most frequent value.", separator.GLUED),
        ("What is a mode?::: The most frequent value.", separator.GLUED),
        ("What is a mode? :: The most frequent value.", separator.WRONG_LENGTH),
        ("What is a mode? :::: The most frequent value.", separator.WRONG_LENGTH),
        (":: The most frequent value.", separator.WRONG_LENGTH),
        # format section 13: glued on either side is a near miss, whatever the text
        ("Nucleus:::Contains the genome.", separator.GLUED),
        ("DNA:::Deoxyribonucleic acid", separator.GLUED),
        ("A ratio written 2:::1", separator.GLUED),
        ("\u8a71\u3059\uff1a\uff1a\uff1ato speak", separator.FULL_WIDTH),
        ("\u8a71\u3059 \uff1a\uff1a\uff1a to speak", separator.FULL_WIDTH),
        ("q ::\uff1a a", separator.FULL_WIDTH),
    ],
)
def test_separator_near_miss(line: str, code: str) -> None:
    assert [f.code for f in separator.near_misses(line)] == [code]


@pytest.mark.parametrize(
    "line",
    [
        "the separator is written ':::' in quotes, or (:::) in brackets",
        "an address such as https://example.org/a:::b or www.example.org:::b",
        "one full-width colon \uff1a is punctuation",
        "Parent::Child and std::vector and :smile::wink:",
        "Time 10:30: the start",
    ],
)
def test_separator_look_alikes_are_not_near_misses(line: str) -> None:
    assert separator.near_misses(line) == []


@pytest.mark.parametrize(
    ("line", "meant"),
    [("== median== is", "==median=="), ("The ==median == is", "==median=="), ("a ==b ==", "==b==")],
)
def test_mark_near_miss(line: str, meant: str) -> None:
    (found,) = mark.near_misses(line)
    assert found.code == mark.NEAR_MISS and f"write '{meant}'" in found.message


@pytest.mark.parametrize(
    "line",
    ["a==b and c==d", "x == y and y == z", "a ==> b and c ==> d", "a === b === c", "== alone"],
)
def test_mark_look_alikes_are_not_near_misses(line: str) -> None:
    assert mark.near_misses(line) == []


@pytest.mark.parametrize(
    ("line", "written", "meant"),
    [
        ("The ==mode is the most frequent value.", "==mode", "==mode=="),
        ("The ==mode.", "==mode.", "==mode=="),
        ("(==mean) is", "==mean)", "==mean=="),
        ("==\ufffc is hidden", "==", "==text=="),  # a formula or code masked after it
    ],
)
def test_unclosed_mark(line: str, written: str, meant: str) -> None:
    (found,) = mark.near_misses(line)
    assert (found.code, found.snippet) == (mark.UNCLOSED_MARK, written)
    assert f"close it after the text it hides ('{meant}')" in found.message


@pytest.mark.parametrize(
    "line",
    [
        "a == b, x==y and w== end",  # spaced, inside a word, closing only
        "\ufffc==\ufffc compares two formulas",
        "(==) and ==) and == alone",
        "The ==skewness == measures",  # a loose pair: AG530 alone, not also unclosed
    ],
)
def test_marks_that_never_open_are_not_unclosed(line: str) -> None:
    assert [f for f in mark.near_misses(line) if f.code == mark.UNCLOSED_MARK] == []


_WORDS = st.text(alphabet="abcdefgh xyz,.?", min_size=1, max_size=20).filter(str.strip)


@given(_WORDS, st.integers(min_value=1, max_value=30), _WORDS, _WORDS)
def test_a_correct_cloze_is_never_a_near_miss(
    before: str, number: int, hidden: str, hint: str
) -> None:
    text = f"{before} {{{{c{number}::{hidden}::{hint}}}}} {before}"
    assert cloze.near_misses(text) == []
    assert cloze.text_problems(text, text) == []


@given(_WORDS, _WORDS)
def test_a_spaced_separator_is_a_separator_and_no_near_miss(question: str, answer: str) -> None:
    line = f"{question.strip()} ::: {answer.strip()}"
    assert len(list(separator.matches(line))) == 1
    assert separator.near_misses(line) == []


@pytest.mark.parametrize(
    ("line", "written"),
    [
        ("What does \ufffc do in C++?::Casts its argument", "C++?::Casts"),
        ("What is the Rust equivalent of std::unique_ptr?::A Box", "std::unique_ptr?::A"),
        ("Iterator::next signature::\ufffc", "signature::"),
        ("What is 'mitosis'?::'cell division'", "'mitosis'?::'cell"),
        ("2+2::4", "2+2::4"),
        ("mitosis::'cell division'", "mitosis::'cell"),
    ],
)
def test_two_glued_colons_beside_code_digits_and_quotes(line: str, written: str) -> None:
    (found,) = separator.near_misses(line)
    assert found.code == separator.TWO_GLUED and f"'{written}' is not" in found.message


@pytest.mark.parametrize(
    "line",
    [
        "std::vector is a container, and a::b a scope",
        "Parent::Child and A::B are deck names",
        "Rust's std::collections::HashMap",
        "an IPv6 address such as fe80::1 or 2001:db8::1",
        "C++:: is no operator, nor C#::",
        "the quoted '::' and \"::\" are written about",
    ],
)
def test_paths_and_addresses_are_not_two_glued_colons(line: str) -> None:
    assert separator.near_misses(line) == []


@pytest.mark.parametrize(
    ("line", "code", "meant"),
    [
        ("Benzene formula >> C6H6", habits.OTHER_TOOL, "Benzene formula ::: C6H6"),
        ("H\u00fcckel's rule ;; 4n+2 electrons", habits.OTHER_TOOL, "rule ::: 4n+2 electrons"),
        ("le chien\tthe dog", habits.OTHER_TOOL, "le chien ::: the dog"),
        ("le chien \t the dog\tle chien", habits.OTHER_TOOL, "le chien ::: the dog le chien"),
        ("What is a carbocation? #card", habits.CARD_TAG, "What is a carbocation? :::"),
        ("\ufffcBenzene\ufffc formula #flashcard", habits.CARD_TAG, "Benzene formula :::"),
    ],
)
def test_other_tools_separators(line: str, code: str, meant: str) -> None:
    (found,) = habits.near_misses(line)
    assert found.code == code and meant in found.message
    assert found.message.endswith(meant + "'") or "with the answer after it" in found.message


@pytest.mark.parametrize(
    "line",
    [
        "a >> b means a is much greater than b",
        "n >> 1 and N >> 100 are comparisons",
        "\ufffc >> \ufffc compares two formulas",
        "File >> Save >> Export is a menu path",
        ">> at the start, or at the end >>",
        "a >>> b is no RemNote separator here",
        "a tag such as #card in the middle of a sentence is text",
        "#card",
        "\tindented text, and a tab at the end\t",
        "\ufffc\t\ufffc",
        "a ;; b and x ;; 2",
    ],
)
def test_other_tools_look_alikes_are_not_near_misses(line: str) -> None:
    assert habits.near_misses(line) == []


def test_a_mark_in_a_list_item_says_where_to_write_it() -> None:
    (found,) = habits.near_misses("Benzene formula >> C6H6", separator.IN_LIST_ITEM)
    assert found.message.endswith("'Benzene formula ::: C6H6'" + separator.IN_LIST_ITEM)


@pytest.mark.parametrize(
    ("lines", "labels"),
    [
        (["Q. What is cost?", "A. The value forgone."], ("Q.", "A.")),
        (["Q1: What is a tariff?", "A1: A tax on imports."], ("Q1:", "A1:")),
        (["Q\uff1a\u4ec0\u4e48", "A\uff1a\u7269\u4ef7"], ("Q\uff1a", "A\uff1a")),
    ],
)
def test_question_answer_label_variants(lines: list[str], labels: tuple[str, str]) -> None:
    ((index, found),) = habits.paragraph_near_misses(lines, "")
    assert index == 0 and found.code == habits.QUESTION_ANSWER_LINES
    assert found.message.startswith(f"'{labels[0]}' and '{labels[1]}' lines")


@pytest.mark.parametrize(
    "lines",
    [
        ["Q. E. D. ends a proof.", "A. Lincoln wrote the address."],
        ["Q3: revenue grew.", "Q4: it fell."],
        ["Quiz: tomorrow.", "A: bring a pen."],
    ],
)
def test_label_look_alikes_are_prose(lines: list[str]) -> None:
    assert habits.paragraph_near_misses(lines, "") == []
