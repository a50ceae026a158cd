"""An unclosed ``$`` or ``$$`` is reported at the sign left open (AG108, AG121)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_text


@pytest.mark.parametrize(
    ("line", "code", "column"),
    [
        ("Q ::: costs $5", "AG108", 13),
        ("Q ::: $x$ and then $y", "AG108", 20),  # the odd one out, after a closed formula
        ("Q ::: costs \\$5, then $5 and $5", "AG108", 23),  # an escaped sign is no sign
        ("Q ::: it is $$x + 1", "AG121", 13),
    ],
)
def test_an_unclosed_dollar_is_reported_at_its_column(line: str, code: str, column: int) -> None:
    result = parse_text(f"# T\n\n{line}\n", Path("d.md"), Path("."), "d.md")
    found = [(d.line, d.column) for d in result.diagnostics if d.code == code]
    assert found == [(3, column)]
