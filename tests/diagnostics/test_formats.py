"""One diagnostic, three output formats: text, JSON records and GitHub workflow commands."""

from __future__ import annotations

import re

from ankigen.diagnostics import Diagnostic, Severity, error, sort_diagnostics, strictly, warning

# GitHub's documented syntax: ::error file={name},line={line},col={col},title={title}::{message}
# Property values escape % CR LF : , and the message escapes % CR LF.
_WORKFLOW_COMMAND = re.compile(
    r"^::(error|warning|notice) "
    r"(?P<props>[a-z]+=[^,:\r\n]*(?:,[a-z]+=[^,:\r\n]*)*)"
    r"::(?P<message>[^\r\n]*)$"
)


def test_text_shows_the_column_when_known() -> None:
    assert error("x.md", 3, "boom").format() == "x.md:3: boom"
    assert warning("x.md", 3, "hm", column=7).format() == "x.md:3:7: warning: hm"


def test_github_annotation_follows_the_workflow_command_syntax() -> None:
    diagnostic = warning("content/a, b.md", 4, "unverified claim `50%`: x", column=12, code="AG201")
    line = diagnostic.format_github()
    match = _WORKFLOW_COMMAND.match(line)
    assert match is not None, line
    props = dict(p.split("=", 1) for p in match["props"].split(","))
    assert props == {"file": "content/a%2C b.md", "line": "4", "col": "12", "title": "AG201"}
    assert match["message"] == "unverified claim `50%25`: x"


def test_github_annotation_keeps_detail_on_one_line() -> None:
    diagnostic = error("f.md", 1, "figure raised", "Traceback\n  boom")
    line = diagnostic.format_github()
    assert "\n" not in line
    assert line == "::error file=f.md,line=1::figure raised%0ATraceback%0A  boom"


def test_records_round_trip() -> None:
    original = Diagnostic("f.md", 2, "m", Severity.WARNING, "d", 5, "AG501")
    assert Diagnostic.from_record(original.to_record()) == original


def test_sort_orders_by_place_and_drops_duplicates() -> None:
    a = error("a.md", 2, "x", column=9)
    b = error("a.md", 2, "y", column=1)
    c = error("a.md", 1, "z")
    assert sort_diagnostics([a, b, a, c]) == [c, b, a]


def test_strict_turns_every_warning_into_an_error() -> None:
    assert all(d.is_error for d in strictly([warning("a.md", 1, "w")], strict=True))
    assert not strictly([warning("a.md", 1, "w")], strict=False)[0].is_error
