"""Every hostile case's preview page, judged as a surface: its frame and every card side.

The preview shows the same cards as Anki and frames them with author text
(deck, section, callout, subdeck and file names, tags, messages). For each
case that builds, the page written by ``ankigen preview`` must pass the
frame's allow-list (``tests/preview/page_judge.py``: no markup, link or
script but the page's own, MathJax kept off the frame, a policy with no
network) and each card side the cards' own allow-list (``judge.py``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hostile.judge import judge
from tests.hostile.support import Case, load_cases
from tests.preview.page_judge import card_sides, frame_problems
from tests.reliability.support import run_cli

BUILT = [case for case in load_cases() if case.outcome == "built"]


@pytest.mark.parametrize(
    ("case", "mode"),
    [(case, mode) for case in BUILT for mode in case.modes],
    ids=[f"{case.name}-{mode}" for case in BUILT for mode in case.modes],
)
def test_preview_page_passes_the_allow_lists(
    case: Case, mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(case.folder, tmp_path / "case", symlinks=True)
    monkeypatch.chdir(tmp_path / "case")
    Path("figures").mkdir(exist_ok=True)
    result = run_cli(
        ["preview", "content", "--out", "p", "--figures", "figures", "--math", mode, *case.options]
    )
    assert result.exit_code == 0, result.output
    pages = sorted(Path("p").glob("*.html"))
    assert pages
    media = [path.name for path in Path("p").iterdir() if path.name.startswith("ag-")]
    for page in pages:
        text = page.read_text("utf-8")
        assert frame_problems(text) == [], page.name
        for side in card_sides(text):
            assert judge(side, media, mathjax=mode == "mathjax").problems == [], side
