"""The seed's cards on a learner's screen: Chromium, day and night, 360 and 500 px wide.

The seed deck is built, imported into real Anki, and each chosen card side,
as Anki renders it (its note type's CSS included), is laid out in headless
Chromium with the class names each client puts on the card in night mode.
The page measures itself; the tests assert what a learner would see.
Screenshots are saved beside the pages (set AG_SCREENSHOTS=DIR to keep them).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from ankigen.package.note_types import card_css
from ankigen.render import FIGURE_FONT_SIZE, MIN_TEXT_PX
from tests.anki_support import fresh_collection, import_deck
from tests.chromium import (
    CHROMIUM,
    NIGHT_MODE_CLASSES,
    PROBE_HEAD,
    SKIP_REASON,
    measure,
    screenshot,
)
from tests.e2e.project import build_project, copy_seed_project

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)

WIDTHS = (360, 500)
#: Night mode as each client marks the card: desktop, AnkiDroid, AnkiMobile.
NIGHT = NIGHT_MODE_CLASSES
#: The cards looked at: a name and text that picks the card by its front.
CHOSEN = {
    "true-false": "Adding more GPUs to a data-parallel job",
    "spot-error": "We use 4 GPUs data-parallel",
    "figure": "What do these step-time bars",
    "derivation": "where does the linear scaling rule come from?",
    "scaling-cloze": "When data parallelism multiplies the effective batch",
}

_PROBE = """<script>
addEventListener('load', () => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const shown = e => e.getBoundingClientRect().width > 0;
  const out = {};
  for (const c of document.querySelectorAll('[data-name]')) {
    const card = c.querySelector('.ag-card');
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT,
      {acceptNode: n => n.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP});
    let first = walker.nextNode();
    while (first && first.parentElement.closest('.ag-context')) first = walker.nextNode();
    const range = document.createRange();
    range.selectNodeContents(first);
    const math = c.querySelector('img.ag-math');
    out[c.dataset.mode + '/' + c.dataset.name + '/' + c.dataset.side] = {
      box: box(c),
      background: getComputedStyle(c).backgroundColor,
      align: getComputedStyle(card).textAlign,
      firstText: box(range),
      context: [...c.querySelectorAll('.ag-context')].map(e => [e.textContent, ...box(e)]),
      display: [...c.querySelectorAll('img.ag-math.ag-display')].filter(shown).map(box),
      inline: [...c.querySelectorAll('img.ag-math:not(.ag-display)')].filter(shown).map(box),
      figures: [...c.querySelectorAll('img.ag-figure')].map(e => [e.naturalWidth, ...box(e)]),
      mathFilter: math ? getComputedStyle(math).filter : '',
      clozeMath: [...c.querySelectorAll('.ag-mc img.ag-math')].filter(shown)
        .map(e => e.getAttribute('src')),
      nowrapLines: [...c.querySelectorAll('.ag-nowrap')].map(e => e.getClientRects().length),
    };
  }
  report(out);
});
</script>"""


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str, str]]]:
    """The media folder and (name, side, html) of each chosen card side, as Anki renders it."""
    project = copy_seed_project(tmp_path_factory.mktemp("screens"))
    build_project(project)
    folder = tmp_path_factory.mktemp("screens-media")
    chosen: list[tuple[str, str, str]] = []
    with fresh_collection() as collection:
        log = import_deck(collection, project / "build" / "distributed-training.apkg")
        assert log.duplicate == 0
        for card_id in collection.find_cards("", order="c.due, c.ord"):
            card = collection.get_card(card_id)
            question, answer = card.question(), card.answer()
            for name, text in CHOSEN.items():
                if text in question and all(n != name for n, _, _ in chosen):
                    chosen += [(name, "front", question), (name, "back", answer)]
        shutil.copytree(collection.media.dir(), folder, dirs_exist_ok=True)
    assert {name for name, _, _ in chosen} == set(CHOSEN)
    return folder, chosen


def _page(
    folder: Path, chosen: list[tuple[str, str, str]], modes: dict[str, str], width: int
) -> Path:
    # Headless Chromium keeps windows at least 500 px wide: a screen of
    # ``width`` px is a column that wide (the card's sizes are in em and %).
    body = "".join(
        f'<div style="width:{width}px"><div class="card card1 {night}" data-mode="{mode}" '
        f'data-name="{name}" data-side="{side}">{html}</div></div>'
        for mode, night in modes.items()
        for name, side, html in chosen
    )
    page = folder / f"cards-{'-'.join(modes)}-{width}.html"
    page.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'>{PROBE_HEAD}</head>"
        f'<body style="margin:0">{body}{_PROBE}</body></html>',
        "utf-8",
    )
    return page


@pytest.fixture(scope="module")
def seen(sides: tuple[Path, list[tuple[str, str, str]]]) -> dict[tuple[str, int], Any]:
    """What the pages measured, by (mode, width); day and night screenshots are saved."""
    folder, chosen = sides
    keep = os.environ.get("AG_SCREENSHOTS")
    modes = {"day": "", **NIGHT}
    out: dict[tuple[str, int], Any] = {}
    for width in WIDTHS:
        measured = measure(_page(folder, chosen, modes, width), 500)  # every mode at once
        for mode in modes:
            prefix = f"{mode}/"
            out[mode, width] = {
                key[len(prefix) :]: value
                for key, value in measured.items()
                if key.startswith(prefix)
            }
        for mode in ("day", "desktop"):
            page = _page(folder, chosen, {mode: modes[mode]}, width)
            shot = screenshot(page, 500, folder / f"{mode}-{width}.png")
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(keep) / shot.name)
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_context_line_on_the_front(seen: dict[tuple[str, int], Any], width: int) -> None:
    cards = seen["day", width]
    for name, expected in [
        ("true-false", "True or false — justify"),
        ("spot-error", "Spot the error"),
        ("scaling-cloze", "Linear scaling rule for the learning rate"),
    ]:
        context = cards[f"{name}/front"]["context"]
        assert [c[0] for c in context] == [expected], name
        _text, _left, top, _width, height = context[0]
        assert height > 10  # a visible line, above the question
        assert top < cards[f"{name}/front"]["firstText"][1]
    assert cards["derivation/front"]["context"] == []  # a question says itself what it asks


@pytest.mark.parametrize("width", WIDTHS)
def test_figure_on_the_front_fits_and_is_legible(
    seen: dict[tuple[str, int], Any], width: int
) -> None:
    front = seen["day", width]["figure/front"]
    [(natural, left, _top, shown, height)] = front["figures"]
    assert natural > 0 and height > 100  # the image loaded and shows
    assert left >= front["box"][0] and shown <= front["box"][2]
    # the figure's text, FIGURE_FONT_SIZE pt drawn (4/3 px per pt), scaled to the card
    assert FIGURE_FONT_SIZE * 4 / 3 * shown / natural >= MIN_TEXT_PX


@pytest.mark.parametrize("width", WIDTHS)
def test_display_formula_is_larger_than_inline_and_centred(
    seen: dict[tuple[str, int], Any], width: int
) -> None:
    back = seen["day", width]["derivation/back"]
    inline = sorted(box[3] for box in back["inline"])
    [(left, _top, shown, height)] = back["display"]
    assert height > 1.8 * inline[len(inline) // 2]  # against a typical inline formula
    card_left, _, card_width, _ = back["box"]
    padding = back["firstText"][0] - card_left
    if shown <= card_width - 2 * padding:
        assert abs((left + shown / 2) - (card_left + card_width / 2)) < 2
    else:  # wider than a phone's card: the text's size kept, it starts with the text
        assert left == pytest.approx(back["firstText"][0], abs=2)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_clozed_formula_shows_once_with_its_part_in_the_cloze_colour(
    sides: tuple[Path, list[tuple[str, str, str]]], seen: dict[tuple[str, int], Any], width: int
) -> None:
    folder, _ = sides
    accent = re.search(r"--ag-accent:\s*(#[0-9a-f]{6})", card_css())  # a text cloze's colour
    assert accent is not None
    cards = seen["day", width]
    [front] = cards["scaling-cloze/front"]["clozeMath"]  # one copy of the formula, not three
    [back] = cards["scaling-cloze/back"]["clozeMath"]
    assert front != back  # the front's image hides the part, the back's shows it
    for image in (front, back):
        assert accent.group(1).encode() in (folder / image).read_bytes(), image


@pytest.mark.parametrize("width", WIDTHS)
def test_question_does_not_move_when_the_card_flips(
    seen: dict[tuple[str, int], Any], width: int
) -> None:
    cards = seen["day", width]
    for name in CHOSEN:
        front, back = cards[f"{name}/front"], cards[f"{name}/back"]
        assert front["align"] == back["align"] == "left"
        offsets = [side["firstText"][i] - side["box"][i] for side in (front, back) for i in (0, 1)]
        assert offsets[:2] == pytest.approx(offsets[2:], abs=1), name


@pytest.mark.parametrize("width", WIDTHS)
def test_punctuation_stays_with_its_formula(seen: dict[tuple[str, int], Any], width: int) -> None:
    lines = [n for side in seen["day", width].values() for n in side["nowrapLines"]]
    assert lines, "the seed has formulas followed by punctuation"
    assert set(lines) == {1}


@pytest.mark.parametrize("mode", sorted(NIGHT))
@pytest.mark.parametrize("width", WIDTHS)
def test_every_clients_night_mode(seen: dict[tuple[str, int], Any], mode: str, width: int) -> None:
    for key, side in seen[mode, width].items():
        assert side["background"] == "rgb(30, 30, 32)", key
        if side["display"] or side["inline"]:
            assert "invert(1)" in side["mathFilter"], key
    for side in seen["day", width].values():
        assert side["background"] == "rgb(255, 255, 255)"
        assert "invert" not in side["mathFilter"]
