"""Another tool's markdown adapted to this format: syntax changes only, each one said."""

from __future__ import annotations

import pytest

from ankigen.importers.markdown_source import adapt, one_paragraph


@pytest.mark.parametrize(
    ("text", "dollar_math", "expected"),
    [
        (r"Mass \(E = mc^2\) and \[x^2\]", False, "Mass $E = mc^2$ and $$x^2$$"),
        ("Costs $5, a==b", False, "Costs \\$5, a=\\=b"),
        ("Costs $x^2$ here", True, "Costs $x^2$ here"),
        ("Costs $5 and $10; $ 5 $; $x$5", True, "Costs \\$5 and \\$10; \\$ 5 \\$; \\$x\\$5"),
        ("Kept `$x$ == y` and \\$", False, "Kept `$x$ == y` and \\$"),
        ("```\n$ echo ==\n\\(x\\)\n```", False, "```\n$ echo ==\n\\(x\\)\n```"),
    ],
)
def test_math_dollars_and_marks(text: str, dollar_math: bool, expected: str) -> None:
    adapted = adapt(text, dollar_math=dollar_math)
    assert (adapted.markdown, adapted.changed) == (expected, ())


def test_what_would_end_an_answer_is_adapted_and_said() -> None:
    adapted = adapt(
        "First\n\n## Heading\n\n---\n\nTitle\n===\n\nLast", dollar_math=False, answer=True
    )
    assert adapted.markdown == "First\n\n#### Heading\n\n\n\n### Title\n\nLast"
    assert adapted.changed == (
        "the level of a heading inside an answer (## written as ####)",
        "a thematic break (---) inside an answer",
        "the level of a heading inside an answer (# written as ###)",
    )


def test_sub_headings_keep_their_levels_apart_and_their_text() -> None:
    text = "## A #\n\n```\n# code\n```\n\n#### deep\n\nT ##\n---\n\n###### last"
    adapted = adapt(text, dollar_math=False, answer=True)
    assert (
        adapted.markdown == "### A\n\n```\n# code\n```\n\n##### deep\n\n### T \\##\n\n###### last"
    )


def test_sub_headings_already_at_level_three_are_left_as_written() -> None:
    adapted = adapt("### a ###\n\n#### b", dollar_math=False, answer=True)
    assert (adapted.markdown, adapted.changed) == ("### a ###\n\n#### b", ())


def test_a_question_of_several_blocks_becomes_one_paragraph() -> None:
    adapted = one_paragraph("Front:\n\n$$x$$\n\n- a\n- b")
    assert adapted.markdown == "Front:\\\n$$x$$\\\n\\- a\\\n\\- b"
    assert adapted.changed == ("a question that is not one paragraph, written as one",)


def test_a_one_paragraph_question_is_left_as_written() -> None:
    adapted = one_paragraph("Why\nthis?")
    assert (adapted.markdown, adapted.changed) == ("Why\nthis?", ())


def test_callouts_and_check_fences_in_an_answer_stay_in_it() -> None:
    text = "Answer\n\n> [!NOTE] Careful\n> text\n\n```check\nassert x\n```"
    adapted = adapt(text, dollar_math=False, answer=True)
    assert adapted.markdown == "Answer\n\n> &#91;!NOTE] Careful\n> text\n\n```text\nassert x\n```"
    assert adapted.changed == (
        "a callout inside an answer, written as a plain quote",
        "the fence info 'check' (this format's own), written 'text'",
    )
