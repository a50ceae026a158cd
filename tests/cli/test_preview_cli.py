"""``ankigen preview`` through CliRunner: pages, MathJax beside them, broken items in place."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ankigen.cli.app import main

GOOD = (
    "# Sums\n\nWhat is $a + b$? ::: The sum. <!-- id: sum -->\n\n{{c1::Cloze}} and {{c2::two}}.\n"
)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "sums.md").write_text(GOOD, "utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_preview_writes_a_page_per_deck_and_no_deck(project: Path) -> None:
    result = invoke("preview")
    assert result.exit_code == 0, result.output
    assert "preview build/preview/sums.html (3 cards)" in result.output.replace(
        str(project) + "/", ""
    )
    page = (project / "build" / "preview" / "sums.html").read_text("utf-8")
    assert page.count('class="ag-entry"') == 3
    assert "content/sums.md:3" in page and "content/sums.md:5" in page
    assert not list((project / "build").glob("*.apkg"))
    assert not (project / "build" / "preview" / "mathjax").exists()  # image mode needs none


def test_mathjax_mode_ships_mathjax_beside_the_page(project: Path) -> None:
    result = invoke("preview", "--math", "mathjax", "--out", "pages")
    assert result.exit_code == 0, result.output
    page = (project / "pages" / "sums.html").read_text("utf-8")
    assert '<script src="mathjax/tex-svg-full.js"></script>' in page
    assert (project / "pages" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
    assert "Apache License" in (project / "pages" / "mathjax" / "LICENSE").read_text("utf-8")
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page


def test_the_same_content_gives_the_same_page(project: Path) -> None:
    assert invoke("preview").exit_code == 0
    first = (project / "build" / "preview" / "sums.html").read_bytes()
    assert invoke("preview", "--out", "again").exit_code == 0
    assert (project / "again" / "sums.html").read_bytes() == first


def test_a_broken_item_is_shown_in_its_place_with_its_message(project: Path) -> None:
    # Format §19: the preview shows every card it can, and each broken item in its place.
    (project / "content" / "sums.md").write_text(
        GOOD + "\nBroken :::\n\nWhat is 2? ::: Two.\n", "utf-8"
    )
    result = invoke("preview")
    assert result.exit_code == 1
    assert "content/sums.md:7:8: empty answer" in result.output
    assert "each broken item is shown in its place" in result.output
    page = (project / "build" / "preview" / "sums.html").read_text("utf-8")
    assert page.count('class="ag-entry"') == 4  # the three cards of GOOD and "What is 2?"
    broken = page.index('<section class="ag-broken" data-source="content/sums.md:7:8">')
    assert page.index("content/sums.md:5") < broken < page.index("What is 2?")
    assert "left out: empty answer: write the answer after" in page


def test_an_error_outside_any_item_writes_no_page_and_keeps_the_last_one(
    project: Path,
) -> None:
    assert invoke("preview").exit_code == 0
    page = project / "build" / "preview" / "sums.html"
    before = page.read_bytes()
    (project / "content" / "sums.md").write_text("---\nnonsense: 1\n---\n" + GOOD, "utf-8")
    result = invoke("preview")
    assert result.exit_code == 1
    assert "content/sums.md:2" in result.output
    assert page.read_bytes() == before


def test_a_missing_path_is_a_usage_error(project: Path) -> None:
    result = invoke("preview", "nowhere")
    assert result.exit_code == 2
    assert "no such file or folder: nowhere" in result.output
