"""A deck written to section 12 by someone else passes --strict, builds, breaks on any edit.

The fixture quotes numbers and formulas in questions, answers, clozes and
Extras, with chains, ``\\approx`` within a tolerance, quotes in ``where`` and
a ``cite``. Every claim of it that a check quotes is then edited on the card,
one at a time, and ``--strict`` must fail for each edit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ankigen.cli.app import main
from ankigen.model import Claim
from tests.check.claims_support import (
    edited,
    is_quoted,
    parse,
    quotes_of,
    strict_errors,
    with_claim_replaced,
)

FIXTURE = Path(__file__).parent / "other_author"
SOURCE = (FIXTURE / "content" / "circuits.md").read_text("utf-8")


def test_passes_strict_and_builds(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path, dirs_exist_ok=True)
    runner = CliRunner()
    checked = runner.invoke(main, ["check", "--strict", str(tmp_path / "content")])
    assert checked.exit_code == 0, checked.output
    assert "0 errors, 0 warnings" in checked.stdout
    built = runner.invoke(
        main,
        ["build", "--strict", str(tmp_path / "content"), "--out", str(tmp_path / "build")],
        catch_exceptions=False,
    )
    assert built.exit_code == 0, built.output
    assert (tmp_path / "build" / "circuits.apkg").stat().st_size > 0


def _quoted_claims() -> list[tuple[int, Claim]]:
    """Each claim a check quotes, and each quoted premise the item shows only once.

    (A question number the answer repeats may change alone: premises are not
    claims, so that edit need not fail.)
    """
    deck = parse(SOURCE)
    found: list[tuple[int, Claim]] = []
    for item in deck.items:
        quotes = quotes_of(item)
        texts = [c.text for c in item.claims]
        found.extend(
            (item.line, c)
            for c in item.claims
            if c.column and is_quoted(c, quotes) and (c.required or texts.count(c.text) == 1)
        )
    return found


QUOTED = _quoted_claims()


def test_every_claim_of_the_fixture_is_quoted_or_cited() -> None:
    deck = parse(SOURCE)
    required = [c for item in deck.items for c in item.claims if c.required]
    quoted = [c for _, c in QUOTED if c.required]
    assert len(required) > 20
    assert len(quoted) == len(required)


@pytest.mark.parametrize(
    ("item_line", "claim"), QUOTED, ids=[f"{c.line}:{c.column}:{c.text[:20]}" for _, c in QUOTED]
)
def test_editing_a_quoted_claim_fails_strict(item_line: int, claim: Claim) -> None:
    deck = parse(SOURCE)
    [item] = [item for item in deck.items if item.line == item_line]
    text = with_claim_replaced(SOURCE, claim, edited(claim, {c.text for c in item.claims}))
    errors = strict_errors(text, only_line=item_line)
    assert errors, f"editing {claim.text!r} at line {claim.line} still passes --strict"
