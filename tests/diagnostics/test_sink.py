"""One sink per file: every parse problem is reported through it, in the order found."""

from __future__ import annotations

from ankigen.diagnostics import Severity, Sink, error, warning


def test_a_sink_records_errors_and_warnings_in_order() -> None:
    sink = Sink("deck.md")
    sink.error(3, "boom", code="AG122", column=4)
    sink.warning(1, "hm", code="AG530")
    assert sink.diagnostics == [
        error("deck.md", 3, "boom", column=4, code="AG122"),
        warning("deck.md", 1, "hm", code="AG530"),
    ]


def test_a_view_below_counts_lines_from_its_own_first_line() -> None:
    sink = Sink("deck.md")
    front_matter = sink.below(2)  # the YAML starts on the file's second line
    front_matter.report(Severity.ERROR, 1, "bad key", code="AG111")
    front_matter.below(3).error(1, "deeper", code="AG104")
    assert [(d.line, d.message) for d in sink.diagnostics] == [(2, "bad key"), (4, "deeper")]
