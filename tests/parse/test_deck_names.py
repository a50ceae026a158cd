"""Deck names Anki refuses to import are errors where they are written."""

from __future__ import annotations

from pathlib import Path

from ankigen.parse import parse_text
from ankigen.syntax import decks


def _problems(text: str, name: str = "deck.md") -> list[tuple[int, int, str]]:
    parsed = parse_text(text, Path(name), Path("."), name)
    return [(d.line, d.column, d.code) for d in parsed.diagnostics if d.severity.name == "ERROR"]


def test_the_deepest_deck_anki_imports_is_no_error() -> None:
    section = "::".join(["s"] * (decks.MAX_LEVELS - 1))
    assert _problems(f"---\nsubdecks: true\n---\n# T\n\n## {section}\n\nQ ::: A\n") == []


def test_a_section_one_level_deeper_is_an_error_at_its_heading() -> None:
    section = "::".join(["s"] * decks.MAX_LEVELS)
    text = f"---\nsubdecks: true\n---\n# T\n\n## {section}\n\nQ ::: A\n"
    assert _problems(text) == [(6, 1, decks.SUBDECK_TOO_DEEP)]


def test_without_subdecks_a_deep_section_names_no_deck() -> None:
    section = "::".join(["s"] * 300)
    assert _problems(f"# T\n\n## {section}\n\nQ ::: A\n") == []


def test_only_the_first_title_names_the_deck() -> None:
    deep = "::".join(["t"] * 12)
    assert _problems(f"# {deep}\n\nQ ::: A\n\n# {deep}\n\nR ::: B\n") == [
        (1, 1, decks.DECK_TOO_DEEP)
    ]
    assert _problems(f"# T\n\nQ ::: A\n\n# {deep}\n\nR ::: B\n") == []


def test_a_file_name_that_names_the_deck_is_checked_too() -> None:
    name = "::".join(["f"] * 12) + ".md"
    assert _problems("Q ::: A\n", name) == [(1, 1, decks.DECK_TOO_DEEP)]
    assert _problems("# Title\n\nQ ::: A\n", name) == []


def test_a_front_matter_deck_is_checked_at_its_key() -> None:
    deep = "::".join(["d"] * 12)
    assert _problems(f"---\ndeck: {deep}\n---\n# T\n\nQ ::: A\n") == [(2, 7, decks.DECK_TOO_DEEP)]


def test_an_empty_name_between_colons_is_an_error_where_it_is_written() -> None:
    # Anki would import 'A::::B::' as the decks A::blank::B::blank.
    assert _problems('---\ndeck: "A::::B::"\n---\n# T\n\nQ ::: A\n') == [
        (2, 8, decks.DECK_TOO_DEEP)
    ]
    assert _problems("# A::\n\nQ ::: A\n") == [(1, 1, decks.DECK_TOO_DEEP)]
    sections = "---\nsubdecks: true\n---\n# T\n\n## ::x\n\nQ ::: A\n"
    assert _problems(sections) == [(6, 1, decks.SUBDECK_TOO_DEEP)]
    assert _problems("# C++ :: STL\n\nQ ::: A\n") == []
