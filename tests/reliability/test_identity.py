"""Note and deck identity: one key per deck in a build, and GUIDs that do not depend on
how an editor happened to encode an accent (Unicode NFC vs NFD)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from ankigen.parse import note_guid
from tests.reliability.support import deck_rows, files_in, run_cli

CAFE_NFC = unicodedata.normalize("NFC", "Which café serves the crème brûlée? ::: Chez Zoë.\n")
CAFE_NFD = unicodedata.normalize("NFD", CAFE_NFC)


def _build() -> None:
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 0, result.output


def _guids(apkg: Path) -> list[str]:
    return [guid for (guid,) in deck_rows(apkg, "select guid from notes order by id")]


def test_nfd_spelling_has_the_same_guid_as_nfc() -> None:
    assert CAFE_NFC != CAFE_NFD
    question_nfc, _ = CAFE_NFC.split(" ::: ")
    question_nfd, _ = CAFE_NFD.split(" ::: ")
    assert note_guid("bistro", None, question_nfc) == note_guid("bistro", None, question_nfd)
    key_nfd = unicodedata.normalize("NFD", "crème")
    assert note_guid(key_nfd, "zoë", "x") == note_guid("crème", "zoë", "y")


def test_resaving_a_question_in_nfd_keeps_its_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    content = tmp_path / "content"
    content.mkdir()
    deck = content / "café.md"
    deck.write_text(f"---\nkey: café\n---\n\n# Bistro\n\n{CAFE_NFC}", "utf-8")
    _build()
    before = _guids(tmp_path / "out" / "café.apkg")
    deck_ids = deck_rows(tmp_path / "out" / "café.apkg", "select did from cards")

    nfd_key = unicodedata.normalize("NFD", "café")
    deck.write_text(f"---\nkey: {nfd_key}\n---\n\n# Bistro\n\n{CAFE_NFD}", "utf-8")
    _build()
    assert _guids(tmp_path / "out" / "café.apkg") == before
    assert deck_rows(tmp_path / "out" / "café.apkg", "select did from cards") == deck_ids


def test_questions_differing_only_in_normal_form_are_duplicates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(f"# Bistro\n\n{CAFE_NFC}\n{CAFE_NFD}", "utf-8")
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 1, result.output
    assert "content/deck.md:3:1: duplicate note: same question as the item at line 5" in (
        result.stderr
    )


def test_key_clash_with_an_up_to_date_deck_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clash is found even though the first deck is current and is not rebuilt."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "botany.md").write_text("# Botany\n\nWhat grows? ::: A plant.\n")
    _build()
    before = files_in(tmp_path / "out")

    (tmp_path / "content" / "zoology.md").write_text(
        "---\nkey: botany\n---\n\n# Zoology\n\nWhat runs? ::: An animal.\n"
    )
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[:2] == [
        "content/botany.md:1:1: deck key 'botany' (from the file name: there is no 'key:') "
        "is also the deck key of content/zoology.md:2: the decks would share note GUIDs and "
        "deck ids, and importing one would overwrite the other's notes; give each file its "
        "own 'key:' in the front matter",
        "content/zoology.md:2:1: deck key 'botany' is also the deck key of "
        "content/botany.md:1: the decks would share note GUIDs and deck ids, and importing "
        "one would overwrite the other's notes; give each file its own 'key:' in the "
        "front matter",
    ]
    assert files_in(tmp_path / "out") == before
