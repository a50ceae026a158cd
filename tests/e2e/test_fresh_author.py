"""Three decks a new author wrote from the contract alone, built strictly, as Anki shows them.

Statistics (subdecks, a figure, callouts, tables, code, links, escapes),
networking (multi-cloze with hints, Anki's own markup, an SVG image, display
math) and chemistry (clozes inside math): every construct of the format, built
with --strict in mathjax mode and imported into a fresh collection with real Anki.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.anki_support import SeenCard, fresh_collection, import_deck, seen_cards
from tests.e2e.project import build_project

FIXTURE = Path(__file__).parent / "fixtures" / "fresh-author"
DECKS = {"statistics": (14, 15), "networking": (11, 13), "chemistry": (6, 6)}


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[SeenCard]]:
    project = tmp_path_factory.mktemp("fresh-author")
    shutil.copytree(FIXTURE, project, dirs_exist_ok=True)
    build_project(project, "--math", "mathjax", "--strict")
    seen = {}
    for stem, (notes, card_count) in DECKS.items():
        with fresh_collection() as collection:
            log = import_deck(collection, project / "build" / f"{stem}.apkg")
            assert (log.new, log.updated, log.duplicate) == (notes, 0, 0)
            assert collection.media.check().missing == []
            seen[stem] = seen_cards(collection)
            assert len(seen[stem]) == card_count
    return seen


def _card(cards: list[SeenCard], text: str) -> SeenCard:
    [card] = [c for c in cards if text in c.front]
    return card


def test_sections_become_subdecks(cards: dict[str, list[SeenCard]]) -> None:
    assert {c.deck for c in cards["statistics"]} == {
        "Maths::Statistics::Descriptive statistics",
        "Maths::Statistics::Spread",
        "Maths::Statistics::Tables and code",
    }
    assert {c.deck for c in cards["networking"]} == {"Networking"}


def test_entities_show_as_written_and_allowed_html_passes(cards: dict[str, list[SeenCard]]) -> None:
    entities = _card(cards["statistics"], "What do &amp; and &lt;b&gt; show?")
    assert "The entities show as &amp; and &lt;b&gt;," in entities.back
    assert "<i>allowed HTML</i> passes" in entities.back  # format §16
    links = _card(cards["statistics"], "Where is the guide?")
    assert "<em>not</em> *this* or _that_." in links.back
    assert 'title="Handbook">the handbook</a>' in links.back


def test_a_figure_inside_a_callout_answer(cards: dict[str, list[SeenCard]]) -> None:
    z = _card(cards["statistics"], "The z-score is")
    assert '<div class="ag-context">z-scores</div>' in z.front
    assert '<img class="ag-figure" src="ag-fig-normal-' in z.back
    assert "formula" in z.tags


def test_three_clozes_with_a_hint(cards: dict[str, list[SeenCard]]) -> None:
    sizes = [c for c in cards["networking"] if "An IPv6 address has" in c.front]
    assert len(sizes) == 3
    assert "[how many?]" in sizes[1].front and "[how many?]" not in sizes[0].front
    assert {"addressing", "ipv6"} <= set(sizes[0].tags)
    assert "2^{96}" in sizes[0].back and "2^{96}" not in sizes[0].front


def test_anki_markup_is_inert_text(cards: dict[str, list[SeenCard]]) -> None:
    markup = _card(cards["networking"], "do in a field?")
    assert "[sound:" not in markup.front  # escaped, so Anki plays nothing
    assert "&#91;sound:ping.mp3]" in markup.front
    assert "&#91;$]y&#91;/$]" in markup.front


def test_cloze_inside_math_hides_only_the_clozed_part(cards: dict[str, list[SeenCard]]) -> None:
    gas = _card(cards["chemistry"], "The ideal gas law")
    assert r"\(pV = \class{cloze}{[\ldots]}\)" in gas.front
    assert r"\(pV = \class{cloze}{nRT}\)" in gas.back
