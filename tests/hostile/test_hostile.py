"""The hostile-content suite: nothing an author writes runs, plays, loads or typesets.

Each folder of ``cases/`` is one attack (content plus ``case.toml``), built
in each math mode through the CLI. A refused case must fail with its
FILE:LINE messages and write no deck. A built case is imported into real
Anki, and every side of every card, for every cloze ordinal Anki makes, is
judged by ``judge.py``'s allow-list; shipped SVG files must hold nothing that
runs or loads; and the texts the case names must be visible, literally.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki.collection import Collection

from tests.anki_support import fresh_collection
from tests.hostile.support import Case, judged_sides, load_cases, media_problems
from tests.reliability.support import run_cli

CASES = load_cases()


@pytest.fixture(scope="module")
def collection() -> Iterator[Collection]:
    """One collection for the whole module: each case removes its notes after judging."""
    with fresh_collection() as shared:
        yield shared


@pytest.mark.parametrize(
    ("case", "mode"),
    [(case, mode) for case in CASES for mode in case.modes],
    ids=[f"{case.name}-{mode}" for case in CASES for mode in case.modes],
)
def test_hostile_case(
    case: Case,
    mode: str,
    collection: Collection,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shutil.copytree(case.folder, tmp_path / "case", symlinks=True)
    monkeypatch.chdir(tmp_path / "case")
    Path("figures").mkdir(exist_ok=True)
    result = run_cli(
        ["build", "content", "--out", "out", "--figures", "figures", "--math", mode, *case.options]
    )
    messages = result.stderr
    assert "Traceback" not in messages
    for expected in case.diagnostics:
        assert expected in messages, messages
    decks = sorted(Path("out").glob("*.apkg")) if Path("out").exists() else []
    if case.outcome == "refused":
        assert result.exit_code == 1, result.output
        assert decks == []
        return
    assert result.exit_code == 0, result.output
    assert decks, "a built case wrote no deck"
    seen = ""
    for apkg in decks:
        assert media_problems(apkg) == []
        for side in judged_sides(collection, apkg, mathjax=mode == "mathjax"):
            assert side.problems == (), f"{side.label}: {side.problems}"
            seen += side.text
    for text in case.shows:
        assert text in seen, f"{text!r} is not shown on any card"
