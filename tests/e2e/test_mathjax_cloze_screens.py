"""A cloze inside a formula, in mathjax mode, looks like a text cloze on every card.

One note holds clozes c1 and c2 inside one formula and a text cloze c3. The
deck is built with ``--math mathjax`` and imported into real Anki; every
card side, as Anki renders it (its note type's CSS included), is typeset in
headless Chromium by MathJax 3 configured as Anki's reviewer configures it
(tex-chtml-full, noerrors and mathtools, textmacros off), by day and in each
client's night mode. The page reads the glyphs MathJax drew (CHTML names each glyph's
code point in a ``mjx-cXXXX`` class) and the computed style of the parts in
the ``cloze`` class, and compares them with Anki's own text cloze span.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests import chromium
from tests.anki_support import fresh_collection, import_deck
from tests.reliability.support import run_cli

_SPEC = importlib.util.find_spec("mathjax")
_MATHJAX = (
    Path(next(iter(_SPEC.submodule_search_locations or []))) / "static/mathjax/es5"
    if _SPEC is not None
    else None
)
pytestmark = [
    pytest.mark.skipif(chromium.CHROMIUM is None, reason=chromium.SKIP_REASON),
    pytest.mark.skipif(
        _MATHJAX is None or not (_MATHJAX / "tex-chtml-full.js").is_file(),
        reason="the mathjax package's files are missing",
    ),
]

CONTENT = r"""---
math: mathjax
---
# Speedup

The speedup $S = \frac{ {{c1::T_1}} }{ {{c2::T_k}} }$ holds for one {{c3::fixed}} batch.
"""

#: Anki's reviewer: ts/mathjax/index.ts and ts/reviewer/index.ts in Anki's source.
_PAGE = """<!doctype html><html><head><meta charset="utf-8">{probe_head}<script>
window.MathJax = {{
  tex: {{displayMath: [["\\\\[", "\\\\]"]], processEscapes: false,
        processEnvironments: false, processRefs: false,
        packages: {{"[+]": ["noerrors", "mathtools"], "[-]": ["textmacros"]}}}},
  loader: {{load: ["[tex]/noerrors", "[tex]/mathtools"]}},
  startup: {{pageReady: () => MathJax.startup.defaultPageReady().then(probe)}}
}};
function glyphs(element) {{
  return [...element.querySelectorAll("mjx-c")].map(c => {{
    const code = [...c.classList].find(n => /^mjx-c[0-9A-F]+$/.test(n));
    return code ? String.fromCodePoint(parseInt(code.slice(5), 16)) : "";
  }}).join("");
}}
function look(element) {{
  const style = getComputedStyle(element);
  return {{text: glyphs(element), color: style.color, weight: style.fontWeight}};
}}
function probe() {{
  const out = {{}};
  for (const side of document.querySelectorAll("[data-key]")) {{
    const shown = [...side.querySelectorAll("mjx-container")]
      .filter(m => m.getBoundingClientRect().width > 0);
    const word = side.querySelector(".ag-card > .cloze");
    out[side.dataset.key] = {{
      formulas: shown.map(m => ({{
        ...look(m),
        size: getComputedStyle(m).fontSize,
        marked: [...m.querySelectorAll("mjx-math .cloze")].map(look),
      }})),
      word: word ? {{color: getComputedStyle(word).color,
                     weight: getComputedStyle(word).fontWeight}} : null,
      text: getComputedStyle(side.querySelector(".ag-card")).color,
    }};
  }}
  report(out);
}}
</script><script src="{mathjax}"></script></head><body style="margin:0">{sides}</body></html>"""

#: Day, and night as each client marks it (the desktop app, AnkiDroid, AnkiMobile).
MODES = {"day": "", **chromium.NIGHT_MODE_CLASSES}

#: The formula's glyphs: S, =, the fraction's parts; MathJax draws T as U+1D447.
T = "\U0001d447"


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What each card side showed, by ``mode/ordinal/side`` (mode: day or night)."""
    assert _MATHJAX is not None
    root = tmp_path_factory.mktemp("mathjax-cloze")
    (root / "content").mkdir()
    (root / "content" / "speedup.md").write_text(CONTENT, "utf-8")
    result = run_cli(["build", str(root / "content"), "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    sides: list[str] = []
    with fresh_collection() as collection:
        import_deck(collection, root / "out" / "speedup.apkg")
        for card_id in collection.find_cards("", order="c.ord"):
            card = collection.get_card(card_id)
            for mode, night in MODES.items():
                for side, html in (("front", card.question()), ("back", card.answer())):
                    key = f"{mode}/{card.ord + 1}/{side}"
                    sides.append(
                        f'<div style="width:500px" class="card card{card.ord + 1} {night}" '
                        f'data-key="{key}">{html}</div>'
                    )
    page = root / "cards.html"
    page.write_text(
        _PAGE.format(
            probe_head=chromium.PROBE_HEAD,
            mathjax=(_MATHJAX / "tex-chtml-full.js").as_uri(),
            sides="".join(sides),
        ),
        "utf-8",
    )
    found: dict[str, Any] = chromium.measure(page, 500, "--allow-file-access-from-files")
    keep = os.environ.get("AG_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shot = chromium.screenshot(page, 500, root / "mathjax-cloze.png")
        shutil.copy(shot, Path(keep) / shot.name)
    return found


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(
    ("ordinal", "hidden", "other"), [(1, f"{T}1", f"{T}\U0001d458"), (2, f"{T}\U0001d458", f"{T}1")]
)
def test_the_hidden_part_looks_like_a_text_cloze_on_the_front(
    seen: dict[str, Any], mode: str, ordinal: int, hidden: str, other: str
) -> None:
    front = seen[f"{mode}/{ordinal}/front"]
    word = seen[f"{mode}/3/front"]["word"]  # Anki's own [...] of the text cloze c3
    [formula] = front["formulas"]  # one copy of the formula shows, not one per cloze
    [gap] = formula["marked"]
    assert gap["text"] == "[\u2026]"
    assert (gap["color"], gap["weight"]) == (word["color"], word["weight"])
    assert formula["color"] == front["text"] != word["color"]  # the rest is plain text
    assert other in formula["text"] and hidden not in formula["text"]
    assert formula["size"] == seen[f"{mode}/{ordinal}/back"]["formulas"][0]["size"]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize(("ordinal", "revealed"), [(1, f"{T}1"), (2, f"{T}\U0001d458")])
def test_the_revealed_part_is_highlighted_on_the_back(
    seen: dict[str, Any], mode: str, ordinal: int, revealed: str
) -> None:
    back = seen[f"{mode}/{ordinal}/back"]
    word = seen[f"{mode}/3/back"]["word"]  # Anki's own revealed text cloze c3
    [formula] = back["formulas"]
    [part] = formula["marked"]
    assert part["text"] == revealed
    assert (part["color"], part["weight"]) == (word["color"], word["weight"])
    assert formula["color"] == back["text"]
    assert formula["text"] == f"\U0001d446={T}1{T}\U0001d458"


@pytest.mark.parametrize("side", ["front", "back"])
def test_a_card_of_another_cloze_shows_the_whole_formula_plain(
    seen: dict[str, Any], side: str
) -> None:
    [formula] = seen[f"day/3/{side}"]["formulas"]
    assert formula["marked"] == []
    assert formula["text"] == f"\U0001d446={T}1{T}\U0001d458"


@pytest.mark.parametrize("client", sorted(chromium.NIGHT_MODE_CLASSES))
def test_night_mode_changes_the_cloze_colour(seen: dict[str, Any], client: str) -> None:
    day, night = seen["day/1/front"], seen[f"{client}/1/front"]
    assert day["formulas"][0]["marked"][0]["color"] != night["formulas"][0]["marked"][0]["color"]
    assert night["formulas"][0]["color"] == night["text"] != day["text"]
