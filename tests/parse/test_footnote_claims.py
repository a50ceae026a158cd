"""A footnote's label is no claim (format section 12.12): footnotes are not supported
(AG155), and the digits of ``[^1]`` would be reported as an unverified number."""

from __future__ import annotations

from pathlib import Path

from ankigen.parse import parse_text


def test_a_footnote_label_is_no_claim_but_the_numbers_around_it_are(tmp_path: Path) -> None:
    text = "# T\n\nHow many chambers? ::: 4 chambers.[^1]\n\n[^12]: In 2 classes.\n"
    result = parse_text(text, tmp_path / "t.md", tmp_path, "t.md")
    assert result.deck is not None
    claims = [(c.text, c.line, c.column) for item in result.deck.items for c in item.claims]
    assert claims == [("4", 3, 24), ("2", 5, 11)]
    assert [d.code for d in result.diagnostics] == ["AG155", "AG155"]
