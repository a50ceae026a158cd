"""The benchmark's generated bank is correct content: it passes ``ankigen check --strict``.

A bank that failed its checks would measure a build that stops early.
"""

from __future__ import annotations

from pathlib import Path

from tests.bench_bank import generated_bank
from tests.reliability.support import run_cli


def test_the_generated_bank_passes_a_strict_check(tmp_path: Path) -> None:
    bank = generated_bank(300)
    (tmp_path / "bank.md").write_text(bank, "utf-8")
    result = run_cli(["check", "--strict", str(tmp_path / "bank.md")])
    assert result.exit_code == 0, result.output
    assert "300 items" in result.output and "0 errors, 0 warnings" in result.output
