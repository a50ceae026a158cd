"""The ``guid`` metadata field: an imported note keeps the GUID another deck gave it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import note_guid, parse_text
from ankigen.parse.metadata import encode_guid


def _parse(text: str) -> tuple[list[str], list[str]]:
    result = parse_text(text, Path("x.md"), Path("."), "x.md")
    guids = [item.guid for item in result.deck.items] if result.deck else []
    return guids, [f"{d.line}: {d.message} [{d.code}]" for d in result.diagnostics]


@pytest.mark.parametrize("guid", ["Lx=a?fAjcf", "c5&02{gFSo", "a;b-->c%d", "a--b", "BPp1I2NO`R"])
def test_an_explicit_guid_is_the_notes_guid(guid: str) -> None:
    text = f"# T\n\nQ? ::: A. <!-- id: q; guid: {encode_guid(guid)} -->\n"
    guids, problems = _parse(text)
    assert (guids, problems) == ([guid], [])


def test_encoding_leaves_no_character_that_ends_a_comment_or_field() -> None:
    written = encode_guid("a;b-->c%d e<f")
    assert written == "a%3Bb%2D%2D%3Ec%25d%20e%3Cf"
    assert not any(c in written for c in ";-<> ")


def test_without_a_guid_the_id_makes_it() -> None:
    guids, _ = _parse("# T\n\nQ? ::: A. <!-- id: q -->\n")
    assert guids == [note_guid("x", "q", "")]


def test_a_guid_alone_is_metadata_too() -> None:
    guids, problems = _parse("# T\n\nQ? ::: A.\n<!-- guid: abc -->\n")
    assert (guids, problems) == (["abc"], [])


@pytest.mark.parametrize("written", ["%FF", "%0A", "a%20"])
def test_a_guid_not_decoding_to_printable_text_without_space_is_an_error(written: str) -> None:
    _, problems = _parse(f"# T\n\nQ? ::: A. <!-- id: q; guid: {written} -->\n")
    assert len(problems) == 1 and problems[0].endswith("[AG138]"), problems


def test_two_items_with_one_guid_are_reported_at_both() -> None:
    text = "# T\n\nQ1? ::: A. <!-- id: q1; guid: g -->\n\nQ2? ::: B. <!-- id: q2; guid: g -->\n"
    _, problems = _parse(text)
    fix = "give one of them a different id [AG107]"
    assert problems == [
        f"3: duplicate note: same guid 'g' as the item at line 5; {fix}",
        f"5: duplicate note: same guid 'g' as the item at line 3; {fix}",
    ]
