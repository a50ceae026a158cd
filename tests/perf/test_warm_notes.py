"""After any edit, a build that reuses rendered notes equals a cold build, in both math modes.

Each edit is applied to a deck built once (so its rendered notes, sections,
proven checks and formula images are cached), then the deck is built again
from those caches and, into a fresh folder, from nothing. Both builds must
write the same bytes and report the same diagnostics and counts (images
drawn and taken from the cache are counted together: a warm build draws
fewer). The edits are those that change what a note shows, or what its HTML
depends on outside the item (an image file, the math mode, a cached image).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ankigen.cache import Store
from ankigen.commands import build
from ankigen.diagnostics import Diagnostic
from tests.perf.edits import Edit, replace_in_deck

DECK = """\
---
math: MODE
tags: [notes]
prompt:
  Spot the error: Find the mistake
---

# Notes deck

## Formulas

What is the speedup on $k$ devices? ::: $S = k$, about 4 on 4 devices.

The loss is {{c1::$L = -\\log p$}}, and its gradient is $\\frac{1}{p}$.

The mean is $\\bar{x} = {{c1::\\frac{1}{n} }}\\sum_i x_i$.

Which norm? ::: The Euclidean one:

$$\\|x\\|_2 = \\sqrt{x^\\top x}$$

## Spot the error

"Doubling the sample size halves the standard error." ::: It divides it by $\\sqrt{2}$.

## Pictures

What does the chart show? ::: Throughput, ![bar chart](chart.svg) by batch size.
"""

CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<rect width="{w}" height="5"/></svg>'
)


def _chart_redrawn(project: Path) -> None:
    (project / "content" / "chart.svg").write_text(CHART.format(w=7), "utf-8")


def _formula_image_lost(project: Path) -> None:
    replace_in_deck("4 on 4 devices", "4 on four devices")(project)
    for image in (project / "out" / ".cache").glob("ag-math-*.svg"):
        image.unlink()
        break


EDITS: dict[str, Edit] = {
    "answer": replace_in_deck("about 4 on 4", "about 4.0 on 4"),
    "inline formula": replace_in_deck("$S = k$", "$S = k + 0$"),
    "display formula": replace_in_deck("\\sqrt{x^\\top x}", "\\sqrt{x^\\top x + 0}"),
    "formula in a cloze": replace_in_deck("{{c1::$L = -\\log p$}}", "{{c1::$L = -\\log q$}}"),
    "cloze in a formula": replace_in_deck("{{c1::\\frac{1}{n} }}", "{{c2::\\frac{1}{n} }}"),
    "formula refused": replace_in_deck("$S = k$", "$\\href{x}{S}$"),
    "formula cannot be drawn": replace_in_deck("$S = k$", "$" + "{" * 30 + "S" + "}" * 30 + "$"),
    "context line": replace_in_deck("Spot the error: Find the mistake", "Spot the error: none"),
    "heading": replace_in_deck("## Formulas", "## Formulae"),
    "front matter tags": replace_in_deck("tags: [notes]", "tags: [notes, edited]"),
    "front matter subdecks": replace_in_deck("tags: [notes]\n", "tags: [notes]\nsubdecks: true\n"),
    "line added above": replace_in_deck("# Notes deck", "# Notes deck\n\nA new line."),
    "item moved": replace_in_deck(
        "What is the speedup on $k$ devices? ::: $S = k$, about 4 on 4 devices.\n\n", ""
    ),
    "image file changed": _chart_redrawn,
    "image reference removed": replace_in_deck(", ![bar chart](chart.svg) by", " by"),
    "formula image lost from the cache": _formula_image_lost,
}

#: The edits that change the math mode: every formula's HTML changes.
MODE_SWITCH = {"image": "mathjax", "mathjax": "image"}


def _options(project: Path, out: str) -> build.BuildOptions:
    return build.BuildOptions(
        paths=(project / "content",), out_dir=project / out, figures_dir=project / "figures"
    )


Outcome = tuple[tuple[Diagnostic, ...], build.BuildSummary, bytes | None]


def _outcome(project: Path, out: str) -> Outcome:
    result = build.run(_options(project, out))
    deck = project / out / "deck.apkg"
    written = deck.read_bytes() if result.written else None
    summary = result.summary
    # A warm build draws fewer images and takes more from the cache: count them together.
    images = summary.images_drawn + summary.images_cached
    summary = dataclasses.replace(summary, images_drawn=images, images_cached=0)
    return result.diagnostics, summary, written


def _project(root: Path, mode: str) -> Path:
    (root / "content").mkdir()
    (root / "figures").mkdir()
    (root / "content" / "deck.md").write_text(DECK.replace("MODE", mode), "utf-8")
    (root / "content" / "chart.svg").write_text(CHART.format(w=3), "utf-8")
    return root


@pytest.fixture()
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return tmp_path


def _warm_equals_cold(project: Path, edit: Edit) -> None:
    first = _outcome(project, "out")
    assert first[2] is not None, first[0]  # the unedited deck builds
    assert Store(project / "out" / ".cache").scope("notes", "deck")
    edit(project)
    warm = _outcome(project, "out")
    cold = _outcome(project, "cold")
    assert warm == cold
    again = _outcome(project, "out")  # and once more, from the caches this build left
    assert again[0] == cold[0] and again[2] in (cold[2], None)


@pytest.mark.parametrize("mode", ["mathjax", "image"])
@pytest.mark.parametrize("name", list(EDITS))
def test_a_build_reusing_notes_after_an_edit_equals_a_cold_one(
    env: Path, mode: str, name: str
) -> None:
    _warm_equals_cold(_project(env, mode), EDITS[name])


@pytest.mark.parametrize("mode", ["mathjax", "image"])
def test_switching_the_math_mode_reuses_no_note_of_the_other(env: Path, mode: str) -> None:
    _warm_equals_cold(
        _project(env, mode), replace_in_deck(f"math: {mode}", f"math: {MODE_SWITCH[mode]}")
    )


def test_the_deck_holds_what_the_edits_are_about(env: Path) -> None:
    project = _project(env, "image")
    diagnostics, summary, written = _outcome(project, "out")
    assert written is not None, diagnostics
    # inline, display, a formula in a cloze and a cloze in a formula (a back and two
    # images per card), and an image file
    assert summary.images_drawn >= 7 and summary.media >= 8


def test_check_neither_reads_nor_writes_rendered_notes(env: Path) -> None:
    project = _project(env, "mathjax")
    options = dataclasses.replace(_options(project, "out"), write=False)
    result = build.run(options)
    assert not result.written
    assert not Store(project / "out" / ".cache").scope("notes", "deck")
