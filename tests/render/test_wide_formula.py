"""A formula wider than a phone's card keeps the text's size and scrolls sideways.

Issue 23: wide formulas used to shrink to fit (``max-width: 100%``), down to
about 5 px tall on a phone. In Chromium at a phone's width, with card.css and
the card template's ``.ag-card`` wrapper, the image keeps its width in em and
the card scrolls; a narrow formula and the text around it are not affected.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.render import formula_img_html, render_formula
from tests.chromium import CHROMIUM, PROBE_HEAD, SKIP_REASON, measure

CSS = (Path(__file__).resolve().parents[2] / "src/ankigen/package/card.css").read_text("utf-8")
WIDE = " + ".join(f"\\frac{{x_{{{i}}}}}{{y_{{{i}}}}}" for i in range(40))
PHONE = 360  # px: a small phone's viewport

_PROBE = """<script>
const card = document.querySelector('.ag-card');
const [wide, narrow] = [...document.querySelectorAll('img')].map(i => i.getBoundingClientRect());
const box = card.getBoundingClientRect();
report({wide: wide.width, narrow: narrow.width, scrolls: card.scrollWidth > card.clientWidth,
        offCentre: narrow.left + narrow.width / 2 - (box.left + box.width / 2),
        font: parseFloat(getComputedStyle(card).fontSize)});
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_a_wide_formula_keeps_its_size_and_the_card_scrolls(tmp_path: Path) -> None:
    images = []
    for name, tex in (("wide.svg", WIDE), ("narrow.svg", r"\frac{a}{b}")):
        drawn = render_formula(tex, display=True)
        (tmp_path / name).write_bytes(drawn.svg)
        images.append((drawn, formula_img_html(name, drawn, display=True, alt="")))
    (wide, wide_img), (narrow, narrow_img) = images
    page = tmp_path / "card.html"
    page.write_text(
        f"<!doctype html><html><head>{PROBE_HEAD}<style>{CSS}</style></head>"
        f'<body class="card"><div class="ag-card ag-back">Text before. {wide_img}'
        f" Text after. {narrow_img}</div>{_PROBE}</body></html>",
        "utf-8",
    )
    seen = measure(page, PHONE)
    assert wide.width_em * seen["font"] > PHONE  # it is wider than the phone
    assert seen["wide"] == pytest.approx(wide.width_em * seen["font"], rel=0.01)
    assert seen["narrow"] == pytest.approx(narrow.width_em * seen["font"], rel=0.01)
    assert seen["scrolls"]
    assert abs(seen["offCentre"]) < 2  # a display formula that fits stays centred
