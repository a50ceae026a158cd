"""``parse.attachment``: check/formulas fences and metadata comments, each on a small input."""

from __future__ import annotations

from markdown_it.token import Token

from ankigen.diagnostics import Sink
from ankigen.model import CodeBlock, ItemKind
from ankigen.parse.attachment import (
    attach_fence,
    attach_metadata_after,
    attach_trailing_metadata,
    is_attached_fence,
    metadata_target,
)
from ankigen.parse.markdown import content_parser
from ankigen.parse.paragraph import paragraph_of, split_blocks
from ankigen.parse.states import AwaitingMetadata, Draft, InAnswer, Outside, Section


def draft(last_line: int = 1) -> Draft:
    """A reveal item on line 1 whose answer ends on ``last_line``."""
    return Draft(ItemKind.REVEAL, 1, (), (), 1, "Q", ["A"], None, [], last_line=last_line)


def first_block(text: str) -> list[Token]:
    """The first top-level block of ``text``."""
    return split_blocks(content_parser().parse(text))[0]


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.diagnostics]


def test_check_and_formulas_fences_are_attached_other_fences_are_not() -> None:
    assert is_attached_fence(first_block("```check\nx = 1\n```\n")[0])
    assert is_attached_fence(first_block("```formulas\nf(x) = x\n```\n")[0])
    assert not is_attached_fence(first_block("```python\nx = 1\n```\n")[0])


def test_a_check_fence_goes_to_the_sections_last_item() -> None:
    item, sink = draft(), Sink("f.md")
    formulas: list[CodeBlock] = []
    lines = ["Q ::: A", "", "```check", "assert 1 == 1", "```"]
    fence = split_blocks(content_parser().parse("\n".join(lines) + "\n"))[1][0]
    attach_fence(fence, Section(last_item=item), formulas, lines, sink)
    assert item.checks == [CodeBlock("check", "assert 1 == 1\n", 4)]
    assert formulas == [] and sink.diagnostics == []


def test_a_formulas_fence_goes_to_the_file_even_without_an_item() -> None:
    sink = Sink("f.md")
    formulas: list[CodeBlock] = []
    lines = ["```formulas", "f(x) = 2*x", "```"]
    attach_fence(first_block("\n".join(lines) + "\n")[0], Section(), formulas, lines, sink)
    assert formulas == [CodeBlock("formulas", "f(x) = 2*x\n", 2)]
    assert sink.diagnostics == []


def test_a_check_fence_with_no_item_in_its_section_is_an_error() -> None:
    sink = Sink("f.md")
    lines = ["```check", "assert 1 == 1", "```"]
    attach_fence(first_block("\n".join(lines) + "\n")[0], Section(), [], lines, sink)
    assert codes(sink) == ["AG128"]
    assert sink.diagnostics[0].line == 1


def test_an_unclosed_check_fence_is_reported_and_still_attached() -> None:
    item, sink = draft(), Sink("f.md")
    lines = ["```check", "assert 1 == 1"]
    attach_fence(first_block("\n".join(lines) + "\n")[0], Section(last_item=item), [], lines, sink)
    assert codes(sink) == ["AG122"]
    assert len(item.checks) == 1


def test_only_an_open_item_can_take_metadata() -> None:
    item = draft()
    assert metadata_target(Outside()) is None
    assert metadata_target(InAnswer(item)) is item
    assert metadata_target(AwaitingMetadata(item)) is item


def comment_on_line(line: int, text: str = "<!-- id: q1 -->") -> Token:
    """An HTML comment block alone on ``line``."""
    (token,) = first_block("\n" * (line - 1) + text + "\n")
    assert token.type == "html_block"
    return token


def test_a_comment_on_the_line_after_the_item_sets_its_metadata() -> None:
    item = draft(last_line=1)
    assert attach_metadata_after(comment_on_line(2), InAnswer(item), Sink("f.md")).ends_item
    assert item.metadata.note_id == "q1"


def test_a_comment_after_a_cloze_awaiting_metadata_sets_its_metadata() -> None:
    item = draft(last_line=1)
    assert attach_metadata_after(comment_on_line(2), AwaitingMetadata(item), Sink("f.md")).taken
    assert item.metadata.note_id == "q1"


def test_a_comment_after_a_blank_line_is_not_the_items() -> None:
    item = draft(last_line=1)
    assert not attach_metadata_after(comment_on_line(3), InAnswer(item), Sink("f.md")).taken
    assert item.metadata.note_id is None


def test_a_comment_outside_an_item_is_left_alone() -> None:
    assert not attach_metadata_after(comment_on_line(2), Outside(), Sink("f.md")).taken


def test_an_html_block_that_is_no_comment_is_left_alone() -> None:
    item = draft(last_line=1)
    assert not attach_metadata_after(
        comment_on_line(2, "<div>x</div>"), InAnswer(item), Sink("f.md")
    ).taken


def test_a_comment_ending_the_items_paragraph_sets_its_metadata() -> None:
    item = draft()
    paragraph = paragraph_of(first_block("more of the answer <!-- id: q2 -->\n"))
    assert attach_trailing_metadata(paragraph, InAnswer(item), Sink("f.md"))  # ends the item
    assert item.metadata.note_id == "q2"


def test_a_remark_comment_sets_nothing_and_does_not_end_the_item() -> None:
    item = draft(last_line=1)
    after = attach_metadata_after(comment_on_line(2, "<!-- TODO -->"), InAnswer(item), Sink("f.md"))
    assert after.taken and not after.ends_item


def test_a_bad_metadata_comment_is_reported_and_sets_nothing() -> None:
    item, sink = draft(last_line=1), Sink("f.md")
    after = attach_metadata_after(comment_on_line(2, "<!-- tag: core -->"), InAnswer(item), sink)
    assert after.taken and not after.ends_item
    assert item.metadata.note_id is None
    assert codes(sink) == ["AG130"] and sink.diagnostics[0].line == 2
    assert sink.diagnostics[0].column == 6  # at the misspelt key


def test_a_bad_field_is_reported_at_its_key_on_its_own_line() -> None:
    item, sink = draft(last_line=1), Sink("f.md")
    comment = "<!-- id: a;\n  colour: red -->"
    attach_metadata_after(comment_on_line(2, comment), InAnswer(item), sink)
    assert [(d.code, d.line, d.column) for d in sink.diagnostics] == [("AG131", 3, 3)]
    sink = Sink("f.md")
    attach_metadata_after(comment_on_line(2, "<!-- id: two words -->"), InAnswer(item), sink)
    assert [(d.code, d.line, d.column) for d in sink.diagnostics] == [("AG132", 2, 10)]
