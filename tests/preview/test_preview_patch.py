"""An open preview page takes a watch round's changed cards in place, without reloading.

``ankigen watch`` writes ``<stem>.patch.js`` (the entries that changed since the
page it wrote last) before ``<stem>.version.js``; the page, seeing a new version,
loads the patch and puts the changed cards in place when the patch leads from its
own version to the new one. A marker set on ``window`` survives (no reload), and so
does the scroll position; an edit that changes more than cards reloads the page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from ankigen.commands.build import BuildOptions
from ankigen.commands.watch import WatchState, rebuild
from ankigen.model import MathMode
from ankigen.preview.page import ShownPage, page_patch, page_version
from tests.perf.edits import replace_in_deck
from tests.preview.cdp import Browser
from tests.preview.chromium import needs_chromium

OLD_ANSWER = "the answer appears below it."
NEW_ANSWER = "the answer appears under it."


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    monkeypatch.chdir(tmp_path / "deck")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    return tmp_path / "deck"


def _options(project: Path, math: MathMode) -> BuildOptions:
    return BuildOptions(
        paths=(project / "content",),
        out_dir=project / "build",
        figures_dir=project / "figures",
        math=math,
        project=project,
    )


def _round(project: Path, state: WatchState, math: MathMode = MathMode.IMAGE) -> Path:
    done = rebuild(_options(project, math), project / "build" / "preview", state=state)
    assert done.build is not None and not done.build.failed, done
    return project / "build" / "preview" / "deck.html"


def _card_text(browser: Browser, words: str) -> bool:
    found = browser.evaluate(
        f"[...document.querySelectorAll('.ag-entry')].some(e => e.textContent.includes({words!r}))"
    )
    return bool(found)


@needs_chromium
@pytest.mark.parametrize("math", [MathMode.IMAGE, MathMode.MATHJAX])
def test_an_edited_answer_reaches_the_open_page_without_a_reload(
    project: Path, math: MathMode
) -> None:
    state = WatchState()
    page = _round(project, state, math)
    with Browser() as browser:
        browser.open(page)
        browser.evaluate("window.scrollTo(0, 400); window.agMarker = 'still here'; 1")
        assert _card_text(browser, OLD_ANSWER)
        before = browser.evaluate("document.body.dataset.version")
        replace_in_deck(OLD_ANSWER, NEW_ANSWER)(project)
        _round(project, state, math)
        browser.wait_for("document.body.dataset.patched === '1'")
        assert browser.evaluate("window.agMarker") == "still here"  # not reloaded
        assert browser.evaluate("document.documentElement.dataset.navigation") == "navigate"
        assert browser.evaluate("window.scrollY") == 400
        assert _card_text(browser, NEW_ANSWER) and not _card_text(browser, OLD_ANSWER)
        assert browser.evaluate("document.body.dataset.version") != before
        assert browser.evaluate("document.documentElement.dataset.problems") == "0"
        # The patched page is the page on disk: the same entries, in the same order.
        on_disk = browser.evaluate(
            "[...document.querySelectorAll('.ag-entry')].map(e => e.outerHTML).join('\\n')"
        )
        browser.open(page)
        assert (
            browser.evaluate(
                "[...document.querySelectorAll('.ag-entry')].map(e => e.outerHTML).join('\\n')"
            )
            == on_disk
        )


@needs_chromium
def test_a_new_section_reloads_the_open_page(project: Path) -> None:
    state = WatchState()
    page = _round(project, state)
    with Browser() as browser:
        browser.open(page)
        browser.evaluate("window.agMarker = 'still here'; 1")
        replace_in_deck("## Cloze items\n", "## Added\n\nNew? ::: Yes.\n\n## Cloze items\n")(
            project
        )
        _round(project, state)
        reloaded = "window.agMarker === undefined"
        browser.wait_for(f"{reloaded} && document.body.textContent.includes('New?')")
        assert browser.evaluate("document.documentElement.dataset.navigation") == "reload"


def test_a_patch_is_plain_data_and_only_between_equal_frames() -> None:
    entries = ("<article>a</article>", "<article>b</article>")
    before = ShownPage("v1", "frame", entries)
    hostile = '<article>"</script><script>alert(1)</script>\u2028</article>'
    after = ShownPage("v2", "frame", (entries[0], hostile))
    patch = page_patch("deck", before, after)
    assert patch.isascii() and "<" not in patch.split("=", 2)[2]
    assert '"from": "v1", "to": "v2", "entries": [[1, ' in patch
    assert patch.endswith('\\u003c/article>"]]};\n')
    assert page_patch("deck", before, ShownPage("v2", "other frame", entries)).endswith("= null;\n")
    assert page_patch("deck", None, after).endswith("= null;\n")


def test_a_watch_round_patches_exactly_the_edited_card(project: Path) -> None:
    """Without a browser: the patch after a one-answer edit holds the one changed entry,
    as it stands in the new page, and leads from the old version to the new one."""
    state = WatchState()
    page = _round(project, state)
    before = page.read_text("utf-8")
    replace_in_deck(OLD_ANSWER, NEW_ANSWER)(project)
    _round(project, state)
    after = page.read_text("utf-8")
    patch = (page.parent / "deck.patch.js").read_text("utf-8")
    data = json.loads(patch.split(" = ", 2)[2].rstrip(";\n"))
    assert (data["from"], data["to"]) == (page_version(before), page_version(after))
    ((place, entry),) = data["entries"]
    assert NEW_ANSWER in entry and entry in after and entry not in before
    assert after.count('<article class="ag-entry"') > place
    assert after.split('<article class="ag-entry"')[place + 1].startswith(
        entry.removeprefix('<article class="ag-entry"')[:200]
    )
