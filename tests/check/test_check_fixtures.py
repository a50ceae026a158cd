"""Every fixture block checks to exactly the diagnostics its ``#!`` lines expect."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ankigen.check._soundness import LITERAL_ONLY
from tests.check.check_support import check_text, messages

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.txt"))
_COUNTS = re.compile(r"^#= checks=(\d+) failed=(\d+)$", re.M)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = [line[3:] for line in text.splitlines() if line.startswith("#! ")]
    report = check_text(text)
    # These blocks test the engine on literals; the literal-only warning has
    # a fixture of its own (quotes/warn_literal_only.md).
    shown = [
        f"{message}  [{d.code}]"
        for message, d in zip(messages(report), report.diagnostics, strict=True)
        if d.code != LITERAL_ONLY
    ]
    assert shown == expected
    counts = _COUNTS.search(text)
    if counts:
        assert (report.checks, report.failed) == (int(counts[1]), int(counts[2]))
    if path.stem.startswith("pass_"):
        assert report.checks > 0 and report.failed == 0


def test_every_form_has_a_fixture() -> None:
    names = {p.stem for p in FIXTURES}
    for form in (
        "eq_symbolic",
        "ne",
        "order_lt",
        "order_le",
        "order_gt",
        "order_ge",
        "approx",
        "approx_within",
        "for",
        "limit",
        "let",
        "where_chain",
    ):
        assert f"pass_{form}" in names
