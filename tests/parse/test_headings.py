"""``parse.headings.read_heading``: the deck title and the section after a heading."""

from __future__ import annotations

from ankigen.parse.headings import AfterHeading, read_heading
from ankigen.parse.markdown import content_parser
from ankigen.parse.states import Section


def after(heading: str, title: str | None = None, section: Section | None = None) -> AfterHeading:
    """Read the one heading ``heading`` with the given title and section in force."""
    open_token, inline, _close = content_parser().parse(heading + "\n")
    return read_heading(open_token, inline, title, section or Section())


def test_the_first_h1_names_the_deck() -> None:
    assert after("# Distributed *training*").title == "Distributed training"


def test_a_later_h1_keeps_the_title_and_ends_the_section() -> None:
    result = after("# Appendix", title="Main", section=Section("Old", "old"))
    assert result == AfterHeading("Main", Section())


def test_an_h2_starts_a_section_tagged_with_its_slug() -> None:
    result = after("## True or false — justify", title="Deck")
    assert result == AfterHeading(
        "Deck", Section("True or false — justify", "true-or-false-justify")
    )


def test_an_h2_without_letters_or_digits_has_no_tag() -> None:
    assert after("## — · —").section == Section("— · —", None)


def test_an_h3_changes_neither_title_nor_section() -> None:
    section = Section("Basics", "basics")
    assert after("### Aside", title="Deck", section=section) == AfterHeading("Deck", section)
