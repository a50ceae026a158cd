"""Image mode: the gap image of a cloze inside a formula does not spell the answer in its alt.

Where a card's images are not there yet (media not synced) or a screen reader
reads the card, the alt text is what the learner gets: on the front of
``$M = {{c1::18}}$`` it must be the gap, not ``M = 18``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.anki_support import fresh_collection, import_deck, seen_cards
from tests.e2e.project import build_project

FIXTURE = Path(__file__).parent / "fixtures" / "gap-image-alt"
_ACTIVE_GAP = re.compile(r'<span class="cloze" data-cloze="[^"]*" data-ordinal="1">\[<img [^>]*>')


def test_the_front_gap_image_alt_hides_the_clozed_part(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    build_project(tmp_path, "--math", "image")
    with fresh_collection() as collection:
        import_deck(collection, tmp_path / "build" / "water.apkg")
        [card] = seen_cards(collection)
    [gap] = _ACTIVE_GAP.findall(card.front)
    alt = re.search(r'alt="([^"]*)"', gap)
    assert alt is not None
    assert "18" not in alt.group(1)
    assert alt.group(1).startswith("M = ")
    assert 'alt="M = 18"' in card.back  # the back shows the whole formula
