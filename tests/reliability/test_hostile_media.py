"""Image files are judged by their size on disk before a byte is read: a sparse file
that claims gigabytes is refused at its line without being loaded into memory."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from ankigen.render import MAX_IMAGE_BYTES
from tests.image_bytes import png_of_size
from tests.reliability.support import GOOD_DECK, files_in, leftovers, run_cli

DECK = (
    "# Images\n\nWhat is fine? ::: This one.\n\n"
    "Which cell is this? ![a cell](big.png) ::: A neuron.\n"
)


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose good deck is built; the next build references ``big.png``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(GOOD_DECK, "utf-8")
    assert run_cli(["build", "content", "--out", "out", "--math", "mathjax"]).exit_code == 0
    (tmp_path / "content" / "deck.md").write_text(DECK, "utf-8")
    return tmp_path


def _sparse(path: Path, size: int) -> None:
    """A file of ``size`` bytes that takes no space on disk."""
    with path.open("wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n")
        os.truncate(handle.fileno(), size)


@pytest.mark.parametrize(
    "size", [2 * 1024**3, MAX_IMAGE_BYTES + 1], ids=["sparse-2GB", "one-byte-over"]
)
def test_oversized_image_is_refused_without_reading_it(project: Path, size: int) -> None:
    _sparse(project / "content" / "big.png", size)
    before = files_in(project / "out")
    tracemalloc.start()
    try:
        result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[0] == (
        "content/deck.md:5:31: image 'big.png' is larger than the 20 MB limit for images; "
        "shrink or compress it (the limit cannot be raised)"
    )
    assert peak < MAX_IMAGE_BYTES // 2, f"the build held {peak} bytes at once"
    assert files_in(project / "out") == before
    assert leftovers(project / "out") == []


def test_image_at_the_limit_is_shipped(project: Path) -> None:
    # a real PNG (its type is judged by its bytes), padded to the limit
    (project / "content" / "big.png").write_bytes(png_of_size(MAX_IMAGE_BYTES))
    result = run_cli(["build", "content", "--out", "out", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
