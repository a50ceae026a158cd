"""Frozen sections come back from the cache exactly as a fresh parse makes them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ankigen.cache import Store, recipe, store_values, stored_values
from ankigen.parse import ParseResult, SectionCache, parse_text, section_cache, sections
from ankigen.parse.sections import split_sections
from tests.conftest import ROOT

SEED = (ROOT / "content" / "distributed-training.md").read_text("utf-8")

MIXED = """\
---
subdecks: true
tags: [t]
---

## Alpha

What is $x^2$ at 3? ::: 9, see ![a plot](img.png) <!-- id: a1 -->

```check
assert `9` == 3^2
```

# Deck title

## Beta

The {{c1::gradient}} flows backwards, \\(x\\) too.

Broken :::

## Gamma

Q ::: $$
\\frac{1}{2}
$$
"""


def _parse(text: str, cache: SectionCache | None) -> ParseResult:
    shown = "content/deck.md"
    return parse_text(text, Path(shown), Path("content"), shown, cache=cache)


def _cached(text: str, file: Path) -> tuple[ParseResult, int]:
    """A parse with the sections the store in ``file.parent`` keeps for the deck ``file.stem``."""
    cache = section_cache(Store(file.parent), file.stem)
    result = _parse(text, cache)
    cache.save()
    return result, cache.hits


def test_a_cached_parse_equals_a_fresh_one(tmp_path: Path) -> None:
    for text in (SEED, MIXED):
        file = tmp_path / f"{len(text)}.sections"
        fresh = _parse(text, None)
        assert _cached(text, file) == (fresh, 0)
        assert _cached(text, file) == (fresh, len(split_sections(text) or [text]))
    assert len(split_sections(MIXED) or ()) == 5
    assert any(d.is_error for d in _parse(MIXED, None).diagnostics)  # errors are cached too


def test_an_edit_parses_only_its_section(tmp_path: Path) -> None:
    file = tmp_path / "deck.sections"
    _cached(MIXED, file)
    edited = MIXED.replace("flows backwards", "flows back")
    result, hits = _cached(edited, file)
    assert result == _parse(edited, None)
    assert hits == len(split_sections(MIXED) or ()) - 1  # all but Beta
    assert result.deck is not None and "flows back," in result.deck.items[1].front.html


def test_a_line_added_above_moves_the_later_sections_without_parsing_them(tmp_path: Path) -> None:
    file = tmp_path / "deck.sections"
    _cached(MIXED, file)
    edited = MIXED.replace("## Alpha\n", "## Alpha\n\nOne more line.\n")
    result, hits = _cached(edited, file)
    assert result == _parse(edited, None)
    assert hits == len(split_sections(MIXED) or ()) - 1  # all but Alpha
    assert result.deck is not None and result.deck.items[-1].line == 24 + 2  # Gamma, two lines down


def test_a_damaged_record_is_ignored(tmp_path: Path) -> None:
    file = tmp_path / "deck.sections"
    _cached(MIXED, file)
    store = Store(tmp_path)
    keys = list(stored_values(store, "sections", "deck"))
    assert len(keys) == len(split_sections(MIXED) or ())
    foreign = b"[\x02\x00\x00\x00\xda\x0dSectionResult\xda\x01x"  # too few fields
    for junk in (b"", b"not marshal", b"\xe9\x00\x00\x00\x00", foreign):
        store_values(store, "sections", "deck", dict.fromkeys(keys, junk))
        assert _cached(MIXED, file) == (_parse(MIXED, None), 0)


def test_a_title_after_a_subdeck_names_it_as_a_whole_parse_does(tmp_path: Path) -> None:
    result, _ = _cached(MIXED, tmp_path / "deck.sections")
    assert result.deck is not None
    assert [item.subdeck for item in result.deck.items][:2] == [
        "Deck title::Alpha",
        "Deck title::Beta",
    ]


def test_another_tool_version_reuses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "deck.sections"
    _cached(MIXED, file)
    monkeypatch.setattr(recipe, "code_fingerprint", lambda *_: "another version")
    assert _cached(MIXED, file) == (_parse(MIXED, None), 0)


#: Lines that make items, sections, problems and whole-document constructs.
PIECES = [
    "## A", "## B", "# T", "", "", "q ::: a", "q ::: a 5%", "{{c1::x}} y", "==m== z",
    "```check", "assert `5%` == 0.05", "```", "$$", "x^2", "> [!recall] R", "> p ::: q",
    "[r]: https://example.org", "see [r]", "\\(x\\)", "a :: b", "<!-- id: n -->", "---",
    "- list", "Broken :::",
]  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=30),
    st.lists(st.tuples(st.integers(0, 29), st.sampled_from(PIECES)), min_size=1, max_size=4),
)
def test_a_cache_never_serves_a_stale_section(
    tmp_path: Path, lines: list[str], edits: list[tuple[int, str]]
) -> None:
    """Each edit of a file (one line replaced), parsed with the cache the versions
    before it left, parses as a fresh parse does."""
    file = tmp_path / "stale.sections"
    store = Store(tmp_path)
    store_values(store, "sections", "stale", {})
    _cached("\n".join(lines) + "\n", file)
    for index, piece in edits:
        lines[index % len(lines)] = piece
        text = "\n".join(lines) + "\n"
        assert _cached(text, file)[0] == _parse(text, None)


def test_a_section_reading_outside_itself_makes_the_file_be_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _parse(MIXED, None)

    def wrong_lines(section: sections.Section, total: int) -> sections.SectionLines:
        # As if a cut were wrong: a later section's tokens point outside its lines.
        shift = 1000 if section.start else 0
        return sections.SectionLines(section.start + shift, section.text.splitlines(), total)

    monkeypatch.setattr(sections.Section, "lines", wrong_lines)
    with pytest.raises(sections.OutsideSection):
        wrong_lines(sections.Section(3, "a\n"), 9)[3]
    assert _cached(MIXED, tmp_path / "deck.sections")[0] == expected
