"""Every content error of the format gives its exact ``FILE:LINE: message`` and loses nothing.

Each folder in ``bad_input/`` is one scenario: ``content/<name>.md`` (plus
``figures/`` or image files where the scenario needs them) and
``expected.txt``, the exact stderr of ``ankigen build``. Before the bad build,
a good deck of the same name is built into the output folder; the failed build
must exit 1, print exactly the expected diagnostics, leave that deck
byte-for-byte as it was, and leave no temporary file behind.

Regenerate ``expected.txt`` with ``UPDATE_GOLDEN=1 pytest tests/reliability``,
then review every message for clarity and the right line.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import compare_golden
from tests.reliability.support import GOOD_DECK, files_in, leftovers, run_cli

SCENARIOS = Path(__file__).parent / "bad_input"


@pytest.mark.parametrize(
    "scenario", sorted(p for p in SCENARIOS.iterdir() if p.is_dir()), ids=lambda p: p.name
)
def test_bad_input(scenario: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "project"
    shutil.copytree(scenario, work, symlinks=True)
    monkeypatch.chdir(work)
    out = Path("out")
    # A symbolic link is kept as the link (its target), not as the bytes it points to.
    bad = {
        p: os.readlink(p) if p.is_symlink() else p.read_bytes()
        for p in Path("content").glob("*.md")
    }
    assert bad, f"{scenario.name} has no content file"

    # A previous, good build of the same decks.
    for path in bad:
        path.unlink()
        path.write_text(GOOD_DECK, "utf-8")
    good = run_cli(
        ["build", "content", "--out", "out", "--figures", "figures", "--math", "mathjax"]
    )
    assert good.exit_code == 0, good.stderr
    before = files_in(out)
    assert sorted(before) == sorted(f"{p.stem}.apkg" for p in bad)

    for path, data in bad.items():
        path.unlink()
        if isinstance(data, str):
            path.symlink_to(data)
        else:
            path.write_bytes(data)
    result = run_cli(["build", "content", "--out", "out", "--figures", "figures"])

    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr.replace("    Traceback (most recent", "")
    stderr = result.stderr.replace(str(work.resolve()), "<TMP>")
    compare_golden(stderr, scenario / "expected.txt")
    assert files_in(out) == before, "a failed build changed the previous deck"
    assert leftovers(out) == []
