"""``parse.paragraph.items_of``: which lines of a paragraph are items of their own."""

from __future__ import annotations

from ankigen.parse.markdown import content_parser
from ankigen.parse.paragraph import items_of, paragraph_of, split_blocks, trailing_comment


def pieces(text: str) -> list[tuple[int, int, str, str | None]]:
    """Each piece's first and last line, its source and its trailing comment."""
    (block,) = split_blocks(content_parser().parse(text))
    return [
        (piece.line, piece.end_line, piece.source, trailing_comment(piece.children))
        for piece, _ in items_of(paragraph_of(block))
    ]


def test_each_line_with_a_separator_is_a_piece_with_its_own_comment() -> None:
    text = "Outlier ::: far <!-- id: a -->\nMode ::: frequent <!-- id: b -->\nMean ::: sum\n"
    assert pieces(text) == [
        (1, 1, "Outlier ::: far <!-- id: a -->", "<!-- id: a -->"),
        (2, 2, "Mode ::: frequent <!-- id: b -->", "<!-- id: b -->"),
        (3, 3, "Mean ::: sum", None),
    ]


def test_a_line_without_a_separator_continues_the_answer_above() -> None:
    text = "Outlier ::: far\nfrom the rest <!-- id: a -->\nMode ::: frequent\n"
    assert pieces(text) == [
        (1, 2, "Outlier ::: far\nfrom the rest <!-- id: a -->", "<!-- id: a -->"),
        (3, 3, "Mode ::: frequent", None),
    ]


def test_a_paragraph_without_a_separator_is_one_piece() -> None:
    assert pieces("Just prose\non two lines.\n") == [(1, 2, "Just prose\non two lines.", None)]
