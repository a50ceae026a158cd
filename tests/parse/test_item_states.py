"""The item grammar: one test per edge of the state diagram in docs/architecture.md.

Each test walks a few blocks and looks at the walker's state (``parse.states``)
and at the drafts it made.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ankigen.diagnostics import Sink
from ankigen.model import ItemKind
from ankigen.parse.markdown import content_parser
from ankigen.parse.states import AwaitingMetadata, InAnswer, Outside
from ankigen.parse.walker import Walker


def walk(text: str) -> Walker:
    """A walker that has read all of ``text``."""
    walker = Walker(text.splitlines(), Sink("f.md"))
    walker.walk(content_parser().parse(text))
    return walker


def test_a_walker_starts_outside_any_item() -> None:
    assert walk("").state == Outside()


def test_outside_a_separator_paragraph_opens_an_answer() -> None:
    walker = walk("Mean ::: the sum over the count\n")
    assert isinstance(walker.state, InAnswer)
    assert walker.state.item.kind is ItemKind.REVEAL


def test_outside_a_cloze_with_an_extra_opens_an_answer() -> None:
    walker = walk("The {{c1::mean}} ::: also called average\n")
    assert isinstance(walker.state, InAnswer)
    assert walker.state.item.kind is ItemKind.CLOZE


def test_outside_a_cloze_without_separator_awaits_metadata() -> None:
    walker = walk("The {{c1::mean}} is the sum over the count.\n")
    assert isinstance(walker.state, AwaitingMetadata)
    assert walker.state.item.kind is ItemKind.CLOZE


def test_outside_prose_stays_outside() -> None:
    walker = walk("Just prose.\n")
    assert walker.state == Outside()
    assert walker.result.drafts == []


def test_in_an_answer_another_block_grows_the_answer() -> None:
    walker = walk("Mean ::: the sum\n\n- over the count\n\nand more prose.\n")
    assert isinstance(walker.state, InAnswer)
    (item,) = walker.result.drafts
    assert item.answer_source == [" the sum", "- over the count\n", "and more prose."]
    assert item.last_line == 5


def test_in_an_answer_a_separator_paragraph_starts_a_new_item() -> None:
    walker = walk("Mean ::: the sum\n\nMode ::: the most frequent\n")
    first, second = walker.result.drafts
    assert isinstance(walker.state, InAnswer) and walker.state.item is second
    assert first.answer_source == [" the sum"]


def test_in_an_answer_a_cloze_without_separator_awaits_metadata() -> None:
    # The edge InAnswer --> AwaitingMetadata: the cloze is an item of its own,
    # not part of the open answer.
    walker = walk("Mean ::: the sum\n\nThe {{c1::mode}} is the most frequent value.\n")
    first, second = walker.result.drafts
    assert isinstance(walker.state, AwaitingMetadata) and walker.state.item is second
    assert second.kind is ItemKind.CLOZE
    assert first.answer_source == [" the sum"]


def test_awaiting_metadata_a_separator_paragraph_opens_an_answer() -> None:
    walker = walk("The {{c1::mean}} is the sum.\n\nMode ::: the most frequent\n")
    assert isinstance(walker.state, InAnswer)
    assert walker.state.item is walker.result.drafts[1]


def test_awaiting_metadata_another_cloze_awaits_metadata_again() -> None:
    walker = walk("The {{c1::mean}} is the sum.\n\nThe {{c1::mode}} is frequent.\n")
    assert isinstance(walker.state, AwaitingMetadata)
    assert walker.state.item is walker.result.drafts[1]


def test_awaiting_metadata_prose_is_not_part_of_the_cloze() -> None:
    walker = walk("The {{c1::mean}} is the sum.\n\nJust prose.\n")
    assert isinstance(walker.state, AwaitingMetadata)
    assert walker.result.drafts[0].answer_source == [""]


CLOSERS = {
    "heading": "## Next",
    "thematic break": "---",
    "check fence": "```check\nassert 1 == 1\n```",
    "formulas fence": "```formulas\nf(x) = x\n```",
    "callout": "> [!note]\n> Prose in a note.",
}


@pytest.mark.parametrize("closer", CLOSERS.values(), ids=CLOSERS.keys())
def test_in_an_answer_a_closer_goes_outside(closer: str) -> None:
    walker = walk(f"Mean ::: the sum\n\n{closer}\n\nafter it.\n")
    assert walker.state == Outside()
    assert walker.result.drafts[0].answer_source == [" the sum"]


@pytest.mark.parametrize("closer", CLOSERS.values(), ids=CLOSERS.keys())
def test_awaiting_metadata_a_closer_goes_outside(closer: str) -> None:
    walker = walk(f"The {{{{c1::mean}}}} is the sum.\n\n{closer}\n")
    assert walker.state == Outside()


def test_in_an_answer_a_metadata_comment_on_the_next_line_ends_the_item() -> None:
    walker = walk("Mean ::: the sum\n<!-- id: mean -->\n")
    assert walker.state == Outside()
    assert walker.result.drafts[0].metadata.note_id == "mean"


def test_in_an_answer_a_metadata_comment_ending_a_paragraph_ends_the_item() -> None:
    walker = walk("Mean ::: the sum\n\nover the count. <!-- id: mean -->\n\nProse.\n")
    assert walker.state == Outside()
    (item,) = walker.result.drafts
    assert item.metadata.note_id == "mean"
    assert item.answer_source == [" the sum", "over the count. <!-- id: mean -->"]
    assert [p.text for p in walker.result.prose.blocks] == ["Prose."]


def test_in_an_answer_a_remark_comment_does_not_end_the_item() -> None:
    walker = walk("Mean ::: the sum\n<!-- TODO: cite it -->\n")
    assert isinstance(walker.state, InAnswer)


def test_in_an_answer_a_sub_heading_grows_the_answer() -> None:
    walker = walk("Mean ::: the sum\n\n### Why\n\nIt balances.\n")
    assert isinstance(walker.state, InAnswer)
    assert walker.result.drafts[0].answer_source == [" the sum", "### Why", "It balances."]


def test_outside_a_sub_heading_is_prose() -> None:
    walker = walk("### Notes\n\nJust prose.\n")
    assert walker.state == Outside()
    assert [p.line for p in walker.result.prose.blocks] == [1, 3]


def test_awaiting_metadata_a_metadata_comment_on_the_next_line_ends_the_item() -> None:
    walker = walk("$$\n{{c1::x}}^2\n$$\n<!-- id: square -->\n")
    assert walker.state == Outside()
    assert walker.result.drafts[0].metadata.note_id == "square"


#: The edges the tests above walk, as (from, to) states; ``[*]`` is the start.
TESTED_EDGES = {
    ("[*]", "Outside"),
    ("Outside", "InAnswer"),
    ("Outside", "AwaitingMetadata"),
    ("Outside", "Outside"),
    ("InAnswer", "InAnswer"),
    ("InAnswer", "AwaitingMetadata"),
    ("InAnswer", "Outside"),
    ("AwaitingMetadata", "InAnswer"),
    ("AwaitingMetadata", "AwaitingMetadata"),
    ("AwaitingMetadata", "Outside"),
}
_ARCHITECTURE = Path(__file__).parents[2] / "docs" / "architecture.md"
_EDGE = re.compile(r"^\s+(\[\*\]|\w+) --> (\w+)", re.MULTILINE)


def test_the_architecture_diagram_has_exactly_the_tested_edges() -> None:
    diagram = _ARCHITECTURE.read_text(encoding="utf-8").split("stateDiagram-v2", 1)[1]
    diagram = diagram.split("```", 1)[0]
    assert set(_EDGE.findall(diagram)) == TESTED_EDGES
