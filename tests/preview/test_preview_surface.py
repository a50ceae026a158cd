"""The preview page is a surface too: hostile author text stays text, nothing loads or runs.

A mathjax deck whose title, section, callout, subdeck and file names hold
MathJax commands and markup is previewed and opened in real headless
Chromium: the names must read literally, MathJax must typeset only the
cards' formulas, and the page's frame and every card side must pass their
allow-lists. A page with a beacon and a script slipped into it (as a card
could if a judge failed) must make no request and run nothing.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from ankigen.commands.preview import _copy_mathjax, _mathjax_source
from ankigen.preview.deck import PreviewCard
from ankigen.preview.page import PageInput, page_html
from tests.hostile.judge import judge
from tests.preview.cdp import Browser
from tests.preview.chromium import needs_chromium
from tests.preview.page_judge import card_sides, frame_problems

pytestmark = needs_chromium

#: As the page must show them: markdown turns each ``\\(`` written in the file into ``\(``.
TITLE = r"Deck \(\href{javascript:alert(1)}{CLICK}\)"
SECTION = r"Sec \(\cssId{planted}{y}\) \[\unicode{x41}\]"
CALLOUT = r"Box \(\style{color:red}{z}\)"
FILE = r"deck \(\require{cancel}\)"
#: True when anything in the page would run, name or link.
LIVE = (
    "document.querySelector(\"#planted, [onerror], [onload], a[href]:not([href^='#'])\") "
    "!== null || "
    "[...document.querySelectorAll('*')].some(e => [...e.attributes]"
    ".some(a => /javascript:/i.test(a.value)))"
)


def _written(shown: str) -> str:
    """The markdown that shows ``shown``: each delimiter's backslash escaped."""
    for delimiter in ("(", ")", "[", "]"):
        shown = shown.replace("\\" + delimiter, "\\\\" + delimiter)
    return shown


HOSTILE = f"""---
math: mathjax
subdecks: true
---
# {_written(TITLE)} <img src=x onerror=alert(2)>

## {_written(SECTION)}

Which power? ::: The square, $a^2$.

> [!note] {_written(CALLOUT)}
> Which root? ::: The square root, $\\sqrt{{b}}$.
"""


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "content").mkdir()
    (root / "content" / f"{FILE}.md").write_text(HOSTILE, "utf-8")
    out = root / "p"
    result = CliRunner().invoke(main, ["preview", str(root / "content"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    (page,) = out.glob("*.html")
    return page


def test_hostile_names_stay_text_in_chromium(hostile_page: Path) -> None:
    with Browser() as browser:
        browser.open(hostile_page)
        assert browser.evaluate("document.querySelector('h1').textContent") == TITLE
        nav = browser.evaluate("document.querySelector('nav').textContent")
        # a callout's title as written (its escapes too), as the card's context line shows it
        assert SECTION in nav and _written(CALLOUT) in nav
        assert FILE in browser.evaluate("document.querySelector('header').textContent")
        subdeck = browser.evaluate(
            "document.querySelector('.ag-entry-head span:nth-of-type(3)').textContent"
        )
        assert SECTION in subdeck  # the subdeck is named after the section
        # MathJax typeset the cards' formulas, and nothing else on the page
        assert browser.evaluate("document.querySelectorAll('.card mjx-container').length") == 2
        assert browser.evaluate("document.querySelectorAll('mjx-container').length") == 2
        assert browser.evaluate(LIVE) is False
        assert browser.evaluate("document.querySelectorAll('img').length") == 0
        assert browser.evaluate("window.ankigenProblems") == []


def test_the_page_passes_its_allow_lists(hostile_page: Path) -> None:
    page = hostile_page.read_text("utf-8")
    assert frame_problems(page) == []
    sides = card_sides(page)
    assert len(sides) == 4
    for side in sides:
        assert judge(side, (), mathjax=True).problems == []


class _Beacon(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Beacon.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def beacon() -> Iterator[str]:
    _Beacon.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Beacon)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _card(side: str) -> PreviewCard:
    return PreviewCard(
        "d.md:3", "ankigen Reveal", "Card", 0, "g", "D", side, side, line=3, anchor="card-x"
    )


def test_nothing_slipped_into_a_card_loads_or_runs(tmp_path: Path, beacon: str) -> None:
    """The policy, not only the judge: a beacon in a style, an image, a font or a script."""
    slipped = (
        f'<div style="background:url({beacon}/style)">x</div>'
        f'<img src="{beacon}/img">'
        f"<style>@import url({beacon}/import);"
        f" @font-face {{font-family: f; src: url({beacon}/font)}} .card {{font-family: f}}</style>"
        f'<script src="{beacon}/script.js"></script>'
        "<script>document.title = 'ran';</script>"
        "<img src=nothing onerror=\"document.title = 'ran'\">"
    )
    page = tmp_path / "d.html"
    page.write_text(page_html(PageInput("d", "D", "d.md", (_card(slipped),), None)), "utf-8")
    with Browser() as browser:
        browser.open(page)
        browser.wait_for("window.ankigenProblems.length >= 4")
        assert browser.evaluate("document.title") == "Preview: D"
        blocked = browser.evaluate("window.ankigenProblems.join(' ')")
    assert "blocked by the page's policy" in blocked
    assert _Beacon.hits == []


def test_mathjax_obeys_no_linking_or_loading_command(tmp_path: Path) -> None:
    """Were such a formula ever on a card, the page's MathJax would not link, name or load."""
    formula = (
        r"\(\href{javascript:alert(1)}{A} \cssId{planted}{B} \style{color:red}{C}"
        r" \class{cloze}{D} \unicode{x45}\)"
    )
    page = tmp_path / "d.html"
    page.write_text(page_html(PageInput("d", "D", "d.md", (_card(formula),), True)), "utf-8")
    source = _mathjax_source()  # the preview command's own copy of MathJax, beside the page
    if source is None:
        pytest.skip("MathJax (django-static-mathjax) is not installed")
    _copy_mathjax(source, tmp_path)
    with Browser() as browser:
        browser.open(page)
        assert browser.evaluate("document.querySelectorAll('.card mjx-container').length") == 2
        assert browser.evaluate(LIVE) is False
        assert browser.evaluate("document.querySelector('.card [style*=red]') === null")
        # \class{cloze} stays: ankigen's own cloze colour (one drawn group per side)
        assert browser.evaluate("document.querySelectorAll('.card g.cloze').length") == 2
