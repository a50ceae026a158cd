"""Golden fixtures of format section 12: one per quote form and one per error."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.check import check_deck
from ankigen.parse import parse_text
from tests.conftest import compare_golden

FIXTURES = sorted(p for p in (Path(__file__).parent / "quotes").glob("*.md") if p.stem != "README")
FORMULAS = """
```formulas
let S = T_compute / (T_compute/k + T_comm)
let T_comm_ring = alpha*log(k, 2) + (k - 1)/k * M/beta
let bw_frac = (k - 1)/k
```
"""


def report_of(path: Path) -> str:
    """What checking the fixture reports: each diagnostic, then the counters."""
    text = path.read_text("utf-8")
    if "```formulas" not in text:
        text += FORMULAS
    parsed = parse_text(text, Path("content/deck.md"), Path("content"), "content/deck.md")
    assert parsed.deck is not None
    assert not parsed.diagnostics, parsed.diagnostics
    report = check_deck(parsed.deck)
    lines = [d.format() + (f"  [{d.code}]" if d.code else "") for d in report.diagnostics]
    lines.append(f"checks={report.checks} failed={report.failed}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture(path: Path) -> None:
    actual = report_of(path)
    compare_golden(actual, path.with_suffix(".golden"))
    severities = {line.split(": ", 1)[1].startswith("warning") for line in actual.splitlines()[:-1]}
    if path.stem.startswith("pass_"):
        assert actual.startswith("checks=") and "failed=0" in actual
    elif path.stem.startswith("warn_"):
        assert True in severities
    else:
        assert False in severities, f"{path.name} reports no error"


def test_every_form_and_error_has_a_fixture() -> None:
    names = {p.stem for p in FIXTURES}
    expected = {
        "pass_number",
        "pass_percent",
        "pass_times",
        "pass_decimal_exponent",
        "pass_fractions",
        "pass_thousands",
        "pass_formula_expression",
        "pass_relation",
        "pass_chain",
        "pass_approx",
        "pass_cloze",
        "pass_cite",
        "err_quote_not_in_item",
        "err_unknown_tex_command",
        "err_malformed_quote",
        "err_tex_syntax",
        "warn_unused_where",
        "err_one_sided_limit",
        "warn_literal_only",
        "warn_unverified",
        "err_quote_in_formulas",
        # format section 18
        "err_precision",
        "warn_loose_within",
        "warn_circular_where",
        "warn_one_point",
        "pass_factorial_binomial",
        "pass_sum_product",
        "pass_lim_in_sim",
        "err_not_in_set",
        "warn_all_premise",
        "pass_all_occurrences",
        "warn_all_occurrences",
        "warn_all_hidden_text",
        "pass_all_notation",
        "err_all_notation_differs",
        "pass_all_units",
        "err_all_unit_changed",
        "warn_all_premise_literal",
        "warn_all_text_in_formula",
        "pass_all_lone_symbols",
        "err_undecided_relation",
        "err_all_quoted_too_often",
        "pass_all_premise_in_quote",
        # format section 17: a quote reads the expanded formula
        "pass_macro_quote",
        "err_macro_quote_differs",
        "err_macro_quote_unreadable",
    }
    assert expected <= names
