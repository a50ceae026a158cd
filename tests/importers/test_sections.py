"""Where the notes of an ankigen deck stood, read back from their tags and context lines."""

from __future__ import annotations

from ankigen.importers.model import ImportedItem, Origin
from ankigen.importers.sections import place_ankigen_items


def _item(tags: tuple[str, ...], section: str | None = None) -> ImportedItem:
    return ImportedItem("Q?", "A.", Origin("d.apkg", 1), tags=tags, section=section)


def test_sections_come_from_context_lines_and_shared_tags() -> None:
    items = [
        _item(("deck", "recall")),  # before any section
        _item(("deck", "speed", "core")),
        _item(("deck", "speed")),
        _item(("deck", "true-or-false"), section="True or false"),  # its context line
        _item(("deck", "true-or-false"), section="True or false"),
        _item(("deck", "true-or-false")),  # same slug, but showed no line
    ]
    placed, prompts = place_ankigen_items(items, [True] * len(items))
    assert [item.section for item in placed] == [
        None,
        "speed",
        "speed",
        "True or false",
        "True or false",
        "true-or-false",
    ]
    assert prompts == (("speed", None), ("True or false", "True or false"), ("true-or-false", None))


def test_notes_of_other_note_types_stay_outside_sections() -> None:
    items = [_item(("a", "x")), _item(("a", "x"))]
    placed, prompts = place_ankigen_items(items, [False, False])
    assert [item.section for item in placed] == [None, None]
    assert prompts == ()
