"""``ankigen preview`` of the seed deck, opened in real headless Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from ankigen.cli.app import main
from tests.e2e.project import copy_seed_project
from tests.preview.chromium import needs_chromium, open_page, screenshot

pytestmark = needs_chromium

SEED_CARDS = 58


@pytest.fixture(scope="module")
def seed_preview(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed deck's preview in MathJax mode (MathJax served from the page's folder)."""
    project = copy_seed_project(tmp_path_factory.mktemp("seed"))
    result = CliRunner().invoke(
        main,
        ["preview", str(project / "content"), "--math", "mathjax", "--out", str(project / "p")],
    )
    assert result.exit_code == 0, result.output
    assert f"({SEED_CARDS} cards)" in result.output
    return project / "p" / "distributed-training.html"


def test_every_card_is_shown_with_its_source_line_and_mathjax_typesets(seed_preview: Path) -> None:
    opened = open_page(seed_preview)
    assert opened.attribute("html", "data-ready") == "1", "the page never finished typesetting"
    assert opened.attribute("html", "data-problems") == "0"
    assert opened.console == ()
    entries = re.findall(
        r'<article class="ag-entry" id="card-[^"]+" data-source="([^"]+)"', opened.dom
    )
    assert len(entries) == SEED_CARDS
    assert all(re.fullmatch(r"[\w/.-]+\.md:\d+", source) for source in entries)
    assert opened.dom.count("<mjx-container") > 50  # formulas typeset by MathJax, offline
    assert "<mjx-merror" not in opened.dom
    # no delimiter left in the page's text (a cloze's data-cloze attribute may hold one)
    text = re.sub(r"<script.*?</script>|<[^>]*>", "", opened.dom, flags=re.DOTALL)
    assert "\\(" not in text


def test_screenshots_in_day_and_night_mode_are_not_blank(
    seed_preview: Path, tmp_path: Path
) -> None:
    day = Image.open(screenshot(seed_preview, tmp_path / "day.png")).convert("L")
    night = Image.open(
        screenshot(seed_preview, tmp_path / "night.png", "?theme=night&width=phone", "600,1200")
    ).convert("L")
    for shot in (day, night):
        low, high = cast(tuple[int, int], shot.getextrema())  # one band: "L"
        assert high - low > 150, "a blank screenshot"
        assert ImageStat.Stat(shot).stddev[0] > 10
    assert ImageStat.Stat(night).mean[0] < ImageStat.Stat(day).mean[0] - 60


def test_a_missing_media_file_is_reported_on_the_page(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "deck")])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["preview", str(tmp_path / "deck" / "content")])
    assert result.exit_code == 0, result.output
    page = tmp_path / "deck" / "build" / "preview" / "deck.html"
    assert open_page(page).attribute("html", "data-problems") == "0"
    (image,) = page.parent.glob("ag-img-*.png")
    image.unlink()
    opened = open_page(page)
    assert opened.attribute("html", "data-problems") == "1"
    assert f"cannot load {image.name}" in opened.dom


def test_an_open_page_reloads_itself_when_a_rebuild_changes_its_version(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    result = CliRunner().invoke(main, ["preview", str(tmp_path / "deck" / "content")])
    assert result.exit_code == 0, result.output
    page = tmp_path / "deck" / "build" / "preview" / "deck.html"
    assert open_page(page).attribute("html", "data-navigation") == "navigate"
    version = page.with_name("deck.version.js")
    version.write_text(version.read_text("utf-8").replace('= "', '= "rebuilt-'), "utf-8")
    assert open_page(page).attribute("html", "data-navigation") == "reload"
