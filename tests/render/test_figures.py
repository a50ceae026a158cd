"""Figures: deterministic bytes in both formats, drawn once per build, fed the checked formulas."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli import main
from ankigen.render.figures import draw_figure
from ankigen.render.media import MediaCache

SCRIPT = """
RUNS = __import__("pathlib").Path(__file__).with_name("runs.txt")

def draw(fig, formulas):
    RUNS.write_text(RUNS.read_text() + "x" if RUNS.exists() else "x")
    ax = fig.add_subplot()
    ks = [1, 2, 4, 8]
    ax.plot(ks, [formulas["S"](k=k) for k in ks])
"""


@pytest.fixture
def figures(tmp_path: Path) -> Path:
    folder = tmp_path / "figures"
    folder.mkdir()
    (folder / "curve.py").write_text(SCRIPT, "utf-8")
    return folder


@pytest.mark.parametrize("image_format", ["svg", "png"])
def test_a_figure_gives_the_same_bytes_every_time(
    figures: Path, tmp_path: Path, image_format: str
) -> None:
    def draw(cache: str) -> bytes:
        result = draw_figure(
            "curve",
            figures,
            {"S": lambda k: k / 2},
            "let S = k/2",
            image_format,
            MediaCache(tmp_path / cache),
        )
        assert result.media is not None, result.problem
        assert result.media.name.endswith(f".{image_format}")
        return result.media.path.read_bytes()

    first, second = draw("one"), draw("two")
    assert first == second
    assert first.startswith(b"\x89PNG" if image_format == "png" else b"<?xml")


def test_each_figure_runs_once_per_build_with_the_files_formulas(
    figures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "deck.md").write_text(
        "# Figures\n\n```formulas\nlet S = k/2\n```\n\n"
        "First? ::: ![a](figure:curve)\n\nSecond? ::: ![b](figure:curve)\n\n"
        "Third? ::: ![c](figure:curve)\n",
        "utf-8",
    )
    result = CliRunner().invoke(main, ["build", "--math", "mathjax"])
    assert result.exit_code == 0, result.output
    assert (figures / "runs.txt").read_text() == "x"
