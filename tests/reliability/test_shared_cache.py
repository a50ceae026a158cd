"""Two builds into one output folder at once share its image cache without losing or
corrupting each other's entries in the sealed index of media (formula image digests and sizes)."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from pathlib import Path

from ankigen.diagnostics import Sink
from ankigen.model import Deck
from ankigen.parse import parse_text
from ankigen.render import MathRenderer, MediaCache


def _deck(tmp_path: Path, tex: str) -> Deck:
    deck = parse_text(f"# D\n\nQ ::: ${tex}$\n", tmp_path / "d.md", tmp_path, "d.md").deck
    assert deck is not None
    return deck


def test_interleaved_builds_keep_both_index_entries(tmp_path: Path) -> None:
    """Both builds read the index before either writes it: neither entry is lost."""
    cache = MediaCache(tmp_path / ".cache")
    first, second = MathRenderer(cache), MathRenderer(cache)
    sink = Sink("d.md")
    first.prepare(_deck(tmp_path, "a^2"), sink)
    second.prepare(_deck(tmp_path, "b^2"), sink)
    first.draw_pending()
    second.draw_pending()
    first.report_undrawn()
    second.report_undrawn()
    assert sink.diagnostics == []

    assert len(MediaCache(cache.folder).indexed()) == 2
    third = MathRenderer(cache)
    third.prepare(_deck(tmp_path, "a^2"), sink)
    third.prepare(_deck(tmp_path, "b^2"), sink)
    third.draw_pending()
    assert third.drawn == 0  # both images and their sizes were found


def _merge_many(folder: str, prefix: str) -> None:
    for n in range(40):
        cache = MediaCache(Path(folder))
        cache.put(f"{prefix}{n}", b"drawn", (n, n, n))
        cache.save_index()


def test_concurrent_merges_lose_nothing(tmp_path: Path) -> None:
    folder = str(tmp_path / ".cache")
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_merge_many, args=(folder, p)) for p in "abc"]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert [w.exitcode for w in writers] == [0, 0, 0]
    index = MediaCache(tmp_path / ".cache").indexed()
    assert index == sorted(f"{p}{n}" for p in "abc" for n in range(40))


def test_two_builds_at_once_share_one_out_folder(tmp_path: Path) -> None:
    """Real builds, started together: afterwards every image of both is in the index."""
    for name, letter in (("left", "a"), ("right", "b")):
        content = tmp_path / name
        content.mkdir()
        items = "\n".join(f"Q{n}? ::: ${letter}^{{{n}}}$\n" for n in range(6))
        (content / f"{name}.md").write_text(f"# {name}\n\n{items}", "utf-8")
    command = [sys.executable, "-m", "ankigen", "build", "--out", "out", "--math", "image"]
    builds = [
        subprocess.Popen([*command, name], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
        for name in ("left", "right")
    ]
    for build in builds:
        _, stderr = build.communicate(timeout=120)
        assert build.returncode == 0, stderr

    assert len(MediaCache(tmp_path / "out" / ".cache").indexed()) == 12
    for name in ("left", "right"):  # rebuilt, not up to date: the images come from the index
        with (tmp_path / name / f"{name}.md").open("a", encoding="utf-8") as deck:
            deck.write("\nOne more? ::: Yes.\n")
    again = subprocess.run(
        [*command, "left", "right"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert "images: 0 rendered, 12 from cache" in again.stdout
