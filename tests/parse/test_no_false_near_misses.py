"""No correct content gets a near-miss warning (format section 13).

The seed deck, every fixture that is not about a near miss, and the
benchmarks' generated bank are correct content: none of them may get one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_file, parse_text
from tests.bench_bank import generated_bank
from tests.conftest import ROOT

#: The codes of near misses (warnings); the AG50x cloze errors are not among them. With
#: them, the warnings of an item written where no item can stand (AG135, AG136, AG148) and of a
#: comment that never closes (AG139), and a code fence after ':::' on its line (AG147):
#: correct content gets none of them either.
NEAR_MISS_CODES = {
    *("AG510", "AG511", "AG512", "AG520", "AG521", "AG522", "AG523", "AG524", "AG525"),
    *("AG526", "AG527", "AG528", "AG530", "AG531", "AG540", "AG135", "AG136", "AG139"),
    *("AG147", "AG148", "AG532", "AG533", "AG152", "AG153", "AG154", "AG155"),
}

CORRECT_FOLDERS = (
    "content",
    "tests/parse/fixtures",
    "tests/cli/fixtures",
    "tests/e2e/fixtures",
    "tests/check/fixtures",
    "tests/reliability/fixtures",
)
CORRECT_FILES = sorted(
    path
    for folder in CORRECT_FOLDERS
    for path in (ROOT / folder).rglob("*.md")
    if not path.name.startswith("near-miss-") or path.name == "near-miss-correct-constructs.md"
)


@pytest.mark.parametrize("path", CORRECT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_correct_file_has_no_near_miss(path: Path) -> None:
    result = parse_file(path, path.parent, path.name)
    assert [d.format() for d in result.diagnostics if d.code in NEAR_MISS_CODES] == []


def test_generated_bank_has_no_near_miss(tmp_path: Path) -> None:
    bank = generated_bank(300)
    result = parse_text(bank, tmp_path / "bank.md", tmp_path, "bank.md")
    assert result.deck is not None and len(result.deck.items) == 300
    assert [d.format() for d in result.diagnostics if d.code in NEAR_MISS_CODES] == []
