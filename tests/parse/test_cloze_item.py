"""``parse.cloze.read_cloze_item``: numbering and problems of one cloze item."""

from __future__ import annotations

from markdown_it.token import Token

from ankigen.diagnostics import Sink
from ankigen.parse import token_meta
from ankigen.parse.cloze import after_separator_column, opener_column, read_cloze_item
from ankigen.parse.markdown import content_parser


def inline(text: str) -> list[Token]:
    """The inline tokens of the one paragraph ``text``."""
    return content_parser().parse(text + "\n")[1].children or []


def test_marks_are_numbered_after_the_highest_explicit_cloze() -> None:
    front = inline("{{c2::a}} then ==b== and ==c==")
    read_cloze_item(front, None, 1, ["{{c2::a}} then ==b== and ==c=="], Sink("f.md"))
    marks = [t for t in front if t.type == "mark_open"]
    assert [token_meta.cloze_number(t) for t in marks] == [3, 4]


def test_a_cloze_without_a_number_is_reported_at_its_column() -> None:
    sink = Sink("f.md")
    read_cloze_item(inline("The {{c::mean}}"), None, 1, ["The {{c::mean}}"], sink)
    assert [(d.line, d.column > 0) for d in sink.diagnostics] == [(1, True)]


def test_a_cloze_in_the_extra_is_an_error() -> None:
    sink = Sink("f.md")
    text = "The {{c1::mean}} ::: not {{c2::this}}"
    read_cloze_item(inline("The {{c1::mean}}"), inline("not {{c2::this}}"), 1, [text], sink)
    assert [(d.code, d.column) for d in sink.diagnostics] == [("AG126", text.index("{{c2") + 1)]


def test_opener_column_points_at_the_opener_else_the_mark() -> None:
    assert opener_column("- the {{c1::Golgi}}") == 7
    assert opener_column("- a ==mark== item") == 5
    assert opener_column("no cloze on this line") == 0


def test_after_separator_column_skips_the_question() -> None:
    line = "The {{c1::mean}} ::: not {{c2::this}}"
    assert after_separator_column(line) == line.index("{{c2") + 1
    assert after_separator_column("The {{c1::mean}} and no separator") == 0


def test_a_well_formed_cloze_item_reports_nothing() -> None:
    sink = Sink("f.md")
    read_cloze_item(inline("The {{c1::mean}}"), inline("an average"), 1, ["x"], sink)
    assert sink.diagnostics == []
