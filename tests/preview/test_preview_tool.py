"""A preview that scales: contents, search, filters and anchors, used in real headless Chromium.

The search box is typed into, key by key, over the DevTools protocol
(``tests/preview/cdp.py``); the page must filter its cards as the learner's
author types, and stay one folder that loads nothing from elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from tests.e2e.project import copy_seed_project
from tests.preview.cdp import Browser
from tests.preview.chromium import needs_chromium
from tests.preview.page_judge import frame_problems

pytestmark = needs_chromium

SEED_CARDS = 58
VISIBLE = "document.querySelectorAll('.ag-entry:not([hidden])').length"


@pytest.fixture(scope="module")
def seed_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed deck's preview in MathJax mode."""
    project = copy_seed_project(tmp_path_factory.mktemp("seed"))
    out = project / "p"
    result = CliRunner().invoke(
        main, ["preview", str(project / "content"), "--math", "mathjax", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out / "distributed-training.html"


def _visible_texts(browser: Browser) -> list[str]:
    texts = browser.evaluate(
        "[...document.querySelectorAll('.ag-entry:not([hidden])')].map(e => e.textContent)"
    )
    assert isinstance(texts, list)
    return [str(t) for t in texts]


def test_the_seed_has_a_nav_of_its_sections_and_callouts(seed_page: Path) -> None:
    page = seed_page.read_text("utf-8")
    nav = page[page.index("<nav") : page.index("</nav>")]
    for section in ("The two numbers behind every trap", "True or false — justify", "Edge cases"):
        assert f">{section}</a>" in nav
    assert ">Core vocabulary: the three words of data-parallel training</a>" in nav  # a callout
    assert frame_problems(page) == []


def test_typing_in_the_search_box_filters_the_cards(seed_page: Path) -> None:
    with Browser() as browser:
        browser.open(seed_page)
        assert browser.evaluate(VISIBLE) == SEED_CARDS
        browser.type("#ag-search", "all-reduce")
        found = _visible_texts(browser)
        assert 0 < len(found) < SEED_CARDS
        assert all("all-reduce" in text.lower() for text in found)
        browser.type("#ag-search", " ring")  # every word must be there
        narrower = _visible_texts(browser)
        assert 0 < len(narrower) < len(found)
        assert all("ring" in text.lower() for text in narrower)
        # sections with nothing left are hidden with their cards
        assert browser.evaluate(
            "[...document.querySelectorAll('.ag-section:not([hidden])')]"
            ".every(s => s.querySelector('.ag-entry:not([hidden])'))"
        )
        assert browser.evaluate("location.search") == "?q=all-reduce+ring"
        assert browser.evaluate("window.ankigenProblems.length") == 0
    with Browser() as browser:  # a reload (or a shared address) keeps the search
        browser.open(seed_page, "?q=all-reduce+ring")
        assert browser.evaluate(VISIBLE) == len(narrower)
        assert browser.evaluate("document.getElementById('ag-search').value") == "all-reduce ring"


def test_filter_by_tag_and_a_stable_anchor(seed_page: Path) -> None:
    with Browser() as browser:
        browser.open(seed_page, "#card-tf-superlinear")
        assert browser.evaluate("document.querySelector(':target').id") == "card-tf-superlinear"
        browser.evaluate(
            "const tag = document.getElementById('ag-tag'); tag.value = 'spot-the-error';"
            "tag.dispatchEvent(new Event('change'))"
        )
        shown = browser.evaluate(
            "[...document.querySelectorAll('.ag-entry:not([hidden])')].map(e => e.dataset.tags)"
        )
        assert isinstance(shown, list) and 0 < len(shown) < SEED_CARDS
        assert all("spot-the-error" in str(tags).split() for tags in shown)


DECK_WITH_PROBLEMS = """# Problems

## Fine

Which layer? ::: The first one.

## Claims

How many? ::: Exactly 128.

> [!recall] Sizes
> How large? ::: Quite large.
"""


def test_cards_with_problems_come_first_and_can_be_shown_alone(tmp_path: Path) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(DECK_WITH_PROBLEMS, "utf-8")
    out = tmp_path / "p"
    result = CliRunner().invoke(main, ["preview", str(tmp_path / "content"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "unverified claim" in result.output  # a warning: the page is written
    page = (out / "deck.html").read_text("utf-8")
    nav = page[page.index("<nav") : page.index("</nav>")]
    assert nav.index("Cards with problems (1)") < nav.index(">Fine</a>")
    assert ">Sizes</a>" in nav
    with Browser() as browser:
        browser.open(out / "deck.html")
        assert browser.evaluate(VISIBLE) == 3
        browser.evaluate("document.getElementById('ag-with-problems').click()")
        (text,) = _visible_texts(browser)
        assert "Exactly 128" in text and "unverified claim" in text
