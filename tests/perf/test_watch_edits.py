"""``ankigen watch``'s rounds equal cold builds, edit after edit.

One watch process (one ``WatchState``, the build caches it fills, the outlines
and cards the preview keeps in memory) goes through a scripted sequence of
edits; after each, the same content is built from nothing into a fresh folder,
with the preview's in-memory outlines and cards forgotten. Both must report the
same diagnostics and write the same deck bytes and the same preview page.
"""

from __future__ import annotations

import dataclasses
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from ankigen.cli.app import main
from ankigen.commands import preview as preview_module
from ankigen.commands.build import BuildOptions, run
from ankigen.commands.preview import write_pages
from ankigen.commands.watch import WatchState, rebuild
from ankigen.model import MathMode, MediaFile
from ankigen.preview import deck as preview_deck
from ankigen.preview import outline as preview_outline
from ankigen.preview import page as preview_page
from tests.perf.edits import Edit, replace_in_deck


def _recolour_image(project: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 24), (200, 30, 30)).save(buffer, format="PNG")
    (project / "content" / "img" / "square.png").write_bytes(buffer.getvalue())


def _redraw_figure(project: Path) -> None:
    figure = project / "figures" / "area.py"
    figure.write_text(figure.read_text("utf-8").replace("linewidth=2", "linewidth=3"), "utf-8")


BROKEN = "\nA broken item? :::\n"

EDITS: list[tuple[str, Edit]] = [
    ("an answer", replace_in_deck("the answer appears below it.", "the answer appears under it.")),
    ("a formula", replace_in_deck("has the area $A = {{c1::", "has the area $A={{c1::")),
    ("an image", _recolour_image),
    ("a figure", _redraw_figure),
    (
        "a new item",
        replace_in_deck("## Cloze items\n", "## Cloze items\n\nNew? ::: Yes. <!-- id: new -->\n"),
    ),
    (
        "a deleted item",
        replace_in_deck(
            "The ==median== is not moved by one extreme value. ::: The mean is. "
            "<!-- id: cloze-shorthand -->\n",
            "",
        ),
    ),
    ("an id change", replace_in_deck("<!-- id: reveal-inline;", "<!-- id: reveal-first;")),
    ("a broken item", replace_in_deck("## Cloze items\n", f"## Cloze items\n{BROKEN}")),
    ("its repair", replace_in_deck(BROKEN, "\n")),
]


def _options(project: Path, out: Path) -> BuildOptions:
    return BuildOptions(
        paths=(project / "content",),
        out_dir=out,
        figures_dir=project / "figures",
        math=MathMode.MATHJAX,
        project=project,
    )


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    monkeypatch.chdir(tmp_path / "deck")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    return tmp_path / "deck"


def _whole_file_outline(text: str) -> preview_outline.Outline:
    return preview_outline.outline(text, by_section=False)


def _cold(project: Path, out: Path) -> tuple[object, bytes | None, bytes]:
    """Diagnostics, deck bytes (None: not written) and page of a build from nothing,
    its page from the outline of the whole file."""
    preview_outline._outline_of.cache_clear()
    preview_deck.card_sides.cache_clear()
    preview_page._entry.cache_clear()
    result = run(_options(project, out))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(preview_module, "outline", _whole_file_outline)
        write_pages(result.rendered, out / "preview", result.diagnostics, result.left_out)
    deck = out / "deck.apkg"
    return (
        result.diagnostics,
        deck.read_bytes() if result.written else None,
        (out / "preview" / "deck.html").read_bytes(),
    )


def test_every_watch_round_equals_a_cold_build(project: Path, tmp_path: Path) -> None:
    out = project / "build"
    preview = out / "preview"
    state = WatchState()
    first = rebuild(_options(project, out), preview, state=state)
    assert first.build is not None and first.build.written, first
    deck = out / "deck.apkg"
    for number, (name, edit) in enumerate(EDITS):
        edit(project)
        round_ = rebuild(_options(project, out), preview, state=state)
        assert round_.build is not None, (name, round_.problem)
        cold_diagnostics, cold_deck, cold_page = _cold(project, tmp_path / f"cold-{number}")
        assert round_.build.diagnostics == cold_diagnostics, name
        if cold_deck is None:
            assert round_.build.failed and not round_.build.written, name
            assert name == "a broken item"
        else:  # written now, or (the repair) the deck of an earlier round, still current
            assert deck.read_bytes() == cold_deck, name
        assert (preview / "deck.html").read_bytes() == cold_page, name
        for media in (tmp_path / f"cold-{number}" / "preview").iterdir():
            if media.suffix in (".svg", ".png"):
                assert (preview / media.name).read_bytes() == media.read_bytes(), (name, media)


def test_the_edits_change_what_they_say(project: Path, tmp_path: Path) -> None:
    """The script is not empty: each edit changes the deck, or breaks it."""
    seen = [_cold(project, tmp_path / "before")]
    for number, (name, edit) in enumerate(EDITS):
        edit(project)
        seen.append(_cold(project, tmp_path / f"after-{number}"))
        assert seen[-1][1:] != seen[-2][1:], name


def test_the_package_memo_gives_the_bytes_of_the_slow_path(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two watchers edit after edit (image mode: formula images held in memory, an image
    and a figure on disk): one keeps its ``PackageMemo``, one runs with ``--no-cache``
    (no memo, no pack). Their decks are the same bytes, and the memo did serve rounds."""
    from ankigen.package import media_pack

    packed: list[str] = []  # the watcher of each round that went through the pack
    watcher = ["warm"]
    deflated_all = media_pack.MediaPack.deflated_all

    def counted(self: media_pack.MediaPack, *args: object, **kwargs: object) -> object:
        packed.append(watcher[0])
        return deflated_all(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(media_pack.MediaPack, "deflated_all", counted)
    warm_out, slow_out = tmp_path / "warm", tmp_path / "slow"
    warm_options = dataclasses.replace(_options(project, warm_out), math=MathMode.IMAGE)
    slow_options = dataclasses.replace(warm_options, out_dir=slow_out, cache=False)
    state = WatchState()
    rounds = 0
    for name, edit in [("first build", _no_edit), *EDITS]:
        edit(project)
        watcher[0] = "warm"
        warm = rebuild(warm_options, warm_out / "preview", state=state)
        watcher[0] = "slow"
        slow = rebuild(slow_options, slow_out / "preview")
        assert warm.build is not None and slow.build is not None, name
        assert warm.build.diagnostics == slow.build.diagnostics, name
        if warm.build.written:
            rounds += 1
            assert (warm_out / "deck.apkg").read_bytes() == (slow_out / "deck.apkg").read_bytes()
        assert bool(warm.build.written) == bool(slow.build.written), name
    assert state.package.media["deck"], "the memo kept the deck's media"
    # A warm round whose media were all as before took them from the memo, not from the
    # pack. Four went through the pack: the first build and the rounds that changed a
    # media file (the formula's image, the image, the figure).
    assert packed.count("warm") == 4
    assert packed.count("slow") == rounds
    assert rounds == 9  # every round but the broken item's wrote its deck


def _no_edit(project: Path) -> None:
    """The first build, before any edit."""


def test_the_memo_holds_no_deck_past_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck whose media deflate to more than ``MEDIA_LIMIT`` is not kept in memory."""
    from ankigen.package import memo as memo_module
    from ankigen.package.zip_writer import deflate

    monkeypatch.setattr(memo_module, "MEDIA_LIMIT", 300)  # the first file only
    files = [MediaFile(f"m{i}.svg", None, bytes(range(256)) * (i + 1)) for i in range(2)]
    entries = [deflate(file.read()) for file in files]
    kept = memo_module.PackageMemo()
    sources = memo_module.media_sources(files)
    kept.remember("small", files[:1], sources[:1], entries[:1])
    assert kept.deflated_media("small", files[:1], sources[:1]) == entries[:1]
    kept.remember("large", files, sources, entries)
    assert "large" not in kept.media
    changed = [MediaFile("m0.svg", None, b"<svg/>")]
    assert kept.deflated_media("small", changed, memo_module.media_sources(changed)) is None


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_a_no_cache_watch_keeps_nothing_of_its_rounds_scratch_folders(
    project: Path, tmp_path: Path
) -> None:
    """``--no-cache`` rounds draw into a scratch folder removed after each: the watch keeps
    no store of one open (nor any value decoded from it) once the round is over."""
    options = dataclasses.replace(_options(project, tmp_path / "out"), cache=False)
    state = WatchState()
    for edit in (_no_edit, EDITS[0][1]):
        edit(project)
        result = rebuild(options, tmp_path / "out" / "preview", state=state)
        assert result.build is not None and result.build.written
    held = [Path(f"/proc/self/fd/{fd}").resolve() for fd in os.listdir("/proc/self/fd")]
    assert not [path for path in held if "ankigen-no-cache-" in str(path)]
