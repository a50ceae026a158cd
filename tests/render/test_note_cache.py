"""Rendered notes are reused only under a key that proves their HTML; a bad cache is ignored."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from ankigen.cache import (
    STORE_NAME,
    Decoded,
    Sealer,
    Store,
    recipe,
    store_values,
    stored_values,
)
from ankigen.model import Deck, MathMode
from ankigen.parse import parse_text
from ankigen.render import RenderReport, RenderSettings, render_decks

TEXT = """\
# Notes

What is the speedup on $k$ devices? ::: $S = k$, about 4 on 4 devices.

The loss is {{c1::$L = -\\log p$}}, and its gradient is $\\frac{1}{p}$.

The mean is $\\bar{x} = {{c1::\\frac{1}{n} }}\\sum_i x_i$.

Plain question ::: plain answer.

What does the chart show? ::: ![bar chart](chart.svg)
"""

#: Items without an image or figure: every one of them is stored.
STORED = 4


def _deck(root: Path, mode: MathMode, text: str = TEXT) -> Deck:
    (root / "chart.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', "utf-8")
    deck = parse_text(text, root / "n.md", root, "n.md", mode).deck
    assert deck is not None
    return deck


def _render(
    root: Path, deck: Deck, *, reuse: bool = True, decoded: Decoded | None = None
) -> RenderReport:
    settings = RenderSettings(root / "figures", root / "cache", reuse_notes=reuse, decoded=decoded)
    report = render_decks([deck], {}, {}, settings)
    assert not [d for d in report.diagnostics if d.is_error]
    return report


def _shown(report: RenderReport) -> list[object]:
    """What the decks show: their notes and the names of their media (not where they are)."""
    return [(d.notes, [m.name for m in d.media], d.sources) for d in report.decks]


@pytest.fixture(params=[MathMode.MATHJAX, MathMode.IMAGE])
def mode(request: pytest.FixtureRequest) -> MathMode:
    return MathMode(request.param)


def test_a_second_render_reuses_every_clean_note_and_gives_the_same_notes(
    tmp_path: Path, mode: MathMode
) -> None:
    deck = _deck(tmp_path, mode)
    first = _render(tmp_path, deck)
    second = _render(tmp_path, deck)
    assert (first.notes_reused, second.notes_reused) == (0, STORED)
    assert second.decks == first.decks
    assert second.cached == first.cached + first.rendered  # every image now from the cache
    assert second.decks == _render(tmp_path, deck, reuse=False).decks


def test_an_edited_item_is_filled_again_and_the_others_reused(
    tmp_path: Path, mode: MathMode
) -> None:
    _render(tmp_path, _deck(tmp_path, mode))
    edited = _deck(tmp_path, mode, TEXT.replace("$S = k$", "$S = 2k$"))
    report = _render(tmp_path, edited)
    assert report.notes_reused == STORED - 1
    assert _shown(report) == _shown(_render(tmp_path / "fresh", edited, reuse=False))


def test_a_warm_process_takes_the_last_rounds_note_of_the_same_item(
    tmp_path: Path, mode: MathMode
) -> None:
    """``ankigen watch`` keeps one ``Decoded``: a round that holds an item of the last one
    (the same object) gives its note again, unchanged; an edited item is finished anew."""
    decoded = Decoded()
    deck = _deck(tmp_path, mode)
    _render(tmp_path, deck, decoded=decoded)  # fills the store
    warm = _render(tmp_path, deck, decoded=decoded)  # stored notes, finished this round
    again = _render(tmp_path, deck, decoded=decoded)  # the same items: the same notes
    assert again.notes_reused == warm.notes_reused == STORED
    first, second = warm.decks[0].notes, again.decks[0].notes
    assert sum(a is b for a, b in zip(first, second, strict=True)) == STORED
    assert _shown(again) == _shown(_render(tmp_path / "cold", deck, reuse=False))

    edited = _deck(tmp_path, mode, TEXT.replace("$S = k$", "$S = 2k$"))
    report = _render(tmp_path, edited, decoded=decoded)
    kept = [note for note in report.decks[0].notes if any(note is old for old in second)]
    assert len(kept) == 0  # a new parse: new items, so nothing is taken by identity
    assert _shown(report) == _shown(_render(tmp_path / "fresh", edited, reuse=False))


def test_no_cache_is_read_or_written_without_reuse(tmp_path: Path) -> None:
    deck = _deck(tmp_path, MathMode.MATHJAX)
    _render(tmp_path, deck, reuse=False)
    assert not (tmp_path / "cache" / STORE_NAME).exists()


def _rows(root: Path) -> dict[bytes, bytes]:
    rows = stored_values(Store(root / "cache"), "notes", "n")
    assert len(rows) == STORED
    return rows


@pytest.mark.parametrize("damage", ["not marshal", "not a tuple", "empty", "forged"])
def test_a_damaged_or_foreign_row_is_ignored(tmp_path: Path, mode: MathMode, damage: str) -> None:
    deck = _deck(tmp_path, mode)
    fresh = _render(tmp_path, deck)
    rows = _rows(tmp_path)
    store = Store(tmp_path / "cache")
    if damage == "forged":  # sealed with a key of an attacker's own
        store = Store(tmp_path / "cache", Sealer(b"an attacker's key, not the user's"[:32]))
        rows = {key: marshal.dumps(("<b>forged</b>", "", ())) for key in rows}
    else:
        junk = {"not marshal": b"\xff\x00 not", "not a tuple": marshal.dumps([1, 2, 3])}
        rows = dict.fromkeys(rows, junk.get(damage, b""))
    store_values(store, "notes", "n", rows)
    report = _render(tmp_path, deck)
    assert report.notes_reused == 0 and report.decks == fresh.decks
    assert _render(tmp_path, deck).notes_reused == STORED  # the build wrote good ones again


def test_a_record_of_the_wrong_shape_is_ignored_and_the_others_reused(
    tmp_path: Path, mode: MathMode
) -> None:
    deck = _deck(tmp_path, mode)
    fresh = _render(tmp_path, deck)
    rows = _rows(tmp_path)
    keys = sorted(rows)
    rows[keys[0]] = marshal.dumps(("front", "back", [b"not", b"names"]))
    rows[keys[1]] = marshal.dumps(("front only",))
    store_values(Store(tmp_path / "cache"), "notes", "n", rows)
    report = _render(tmp_path, deck)
    assert report.notes_reused == STORED - 2 and report.decks == fresh.decks


def test_notes_of_other_code_are_never_reused(
    tmp_path: Path, mode: MathMode, monkeypatch: pytest.MonkeyPatch
) -> None:
    deck = _deck(tmp_path, mode)
    fresh = _render(tmp_path, deck)
    # Another allow-list or HTML writer is another fingerprint: every key changes.
    monkeypatch.setattr(recipe, "code_fingerprint", lambda *_: "another version")
    report = _render(tmp_path, deck)
    assert report.notes_reused == 0 and report.decks == fresh.decks


def test_a_note_whose_image_left_the_cache_is_drawn_and_filled_again(tmp_path: Path) -> None:
    deck = _deck(tmp_path, MathMode.IMAGE)
    fresh = _render(tmp_path, deck)
    gone = sorted((tmp_path / "cache").glob("ag-math-*.svg"))[0]
    gone.unlink()
    report = _render(tmp_path, deck)
    assert report.rendered == 1 and report.notes_reused < STORED
    assert report.decks == fresh.decks and gone.is_file()


def test_a_refused_formula_is_reported_every_time_and_never_stored(
    tmp_path: Path, mode: MathMode
) -> None:
    deck = _deck(tmp_path, mode, TEXT.replace("$S = k$", "$\\href{x}{S}$"))
    settings = RenderSettings(tmp_path / "figures", tmp_path / "cache", reuse_notes=True)
    first = render_decks([deck], {}, {}, settings)
    second = render_decks([deck], {}, {}, settings)
    assert [d.code for d in first.diagnostics if d.is_error]
    assert second.diagnostics == first.diagnostics and second.decks == first.decks
    assert second.notes_reused == STORED - 1
