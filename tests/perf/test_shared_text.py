"""With workers, a file's text is parsed from the shared map: the same deck, even read whole.

``parse.section_text`` moves the text out of its string before forking; the
parse from the map must be the serial parse from the string, and the
fallback that reads a wrongly cut file whole reads it back from the map.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import ParseResult, parse_file, parse_text, section_text, sections
from tests.perf.parallel_support import bank, workers_for_everything


def _parse(text: str, jobs: int) -> ParseResult:
    return parse_text(text, Path("bank.md"), Path("."), "bank.md", jobs=jobs)


def _spy_shares(monkeypatch: pytest.MonkeyPatch) -> list[section_text.SectionText]:
    """Every ``SectionText`` shared from now on."""
    shared: list[section_text.SectionText] = []
    share = section_text.SectionText.share

    def spy(self: section_text.SectionText) -> None:
        share(self)
        shared.append(self)

    monkeypatch.setattr(section_text.SectionText, "share", spy)
    return shared


def test_a_file_parsed_by_workers_is_read_from_the_map(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = bank(6) + "\n## Über\n\nWhat is \u00e9? ::: \u4e2d \U0001f600\n"
    file = tmp_path / "bank.md"
    file.write_text(text, "utf-8")
    serial = parse_file(file, tmp_path, "bank.md", jobs=1)
    workers_for_everything(monkeypatch)
    shared = _spy_shares(monkeypatch)
    assert parse_file(file, tmp_path, "bank.md", jobs=2) == serial
    assert len(shared) == 1 and shared[0]._text is None  # the string was let go


def test_a_wrong_cut_is_read_whole_from_the_map(monkeypatch: pytest.MonkeyPatch) -> None:
    text = bank(5)
    expected = _parse(text, 1)

    def wrong_lines(section: sections.Section, total: int) -> sections.SectionLines:
        # As if a cut were wrong: a later section's tokens point outside its lines.
        shift = 1000 if section.start else 0
        return sections.SectionLines(section.start + shift, section.text.splitlines(), total)

    read_whole: list[bool] = []
    whole = section_text.SectionText.whole

    def spy_whole(self: section_text.SectionText) -> str:
        read_whole.append(self._text is None)  # True: read from the map
        return whole(self)

    workers_for_everything(monkeypatch)
    shared = _spy_shares(monkeypatch)
    monkeypatch.setattr(section_text.SectionText, "whole", spy_whole)
    monkeypatch.setattr(sections.Section, "lines", wrong_lines)
    assert _parse(text, 2) == expected
    assert len(shared) == 1 and read_whole == [True]
