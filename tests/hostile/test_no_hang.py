"""Hostile sizes: scans that were cubic or quadratic in a paragraph's length are linear.

No clock is read. Each input is sized so that the old scan would hold the suite
for minutes to hours (2,000 unclosed openers in 16 KB took ``check`` far past
800 openers' 43 s; the scan after ``:::`` was quadratic; 20,000 glued ``:::``
on a line took 33 s, 50,000 would take minutes), while the linear scans end
in a second or two, most of it markdown-it's own parse. genanki's quadratic
broken-tag pattern over one answer line of links is tested beside the rows it
no longer checks (``tests/perf/test_collection_rows.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ankigen.parse import parse_text
from ankigen.render._notes import keep_punctuation
from ankigen.syntax import cloze
from tests.reliability.support import run_cli

UNCLOSED = "{{c1::a "


def test_check_reports_2000_unclosed_openers_in_16_kb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("content").mkdir()
    Path("content/stall.md").write_text(f"# Stall\n\nThe {UNCLOSED * 2000}end.\n", "utf-8")
    result = run_cli(["check", "content", "--out", "out"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.stderr
    assert result.stderr.count("is never closed") == 2000
    assert "content/stall.md:3:5: cloze '{{c1::' is never closed" in result.stderr


def test_unclosed_scan_of_100000_openers_is_linear() -> None:
    # Cubic before: one scan of every cloze for each unclosed opener.
    closed = "{{c2::closed}} "
    text = closed + UNCLOSED * 100_000
    problems = cloze.text_problems(text, text)
    assert sum(p.code == cloze.UNCLOSED for p in problems) == 100_000
    assert cloze.spans(text) == [(0, len(closed) - 1)]


def test_unclosed_openers_after_the_separator_are_scanned_once() -> None:
    # Quadratic before: the near-miss mask of the answer's line scanned to its end
    # from every opener.
    text = "# Answer\n\nQ ::: " + UNCLOSED * 50_000 + "\n"
    parsed = parse_text(text, Path("answer.md"), Path("."), "answer.md")
    assert [d.code for d in parsed.diagnostics] == ["AG125"]


@pytest.mark.parametrize(
    ("piece", "code"),
    [
        ("a?:::b ", "AG520"),  # each glued ":::" named its words by splitting the whole line
        ("{c1::x}} ", "AG511"),  # each near miss counted the newlines from the token's start
        ("{{c1::a}} :: ", "AG521"),  # the line was copied once per cloze to mask it
    ],
)
def test_50000_near_misses_on_one_line_are_found_in_one_pass(piece: str, code: str) -> None:
    text = "# Misses\n\n" + piece * 50_000 + "\n"
    parsed = parse_text(text, Path("misses.md"), Path("."), "misses.md")
    codes = [d.code for d in parsed.diagnostics]
    assert codes.count(code) == 50_000, sorted(set(codes))


def test_30000_marks_in_one_answer_are_rendered_in_one_pass() -> None:
    # Each closing "==" looked for its opener in a copy of every token before it.
    text = "# Marks\n\nQ ::: " + "==a== " * 30_000 + "\n"
    parsed = parse_text(text, Path("marks.md"), Path("."), "marks.md")
    assert [d.code for d in parsed.diagnostics] == ["AG125"]


def test_50000_mathjax_delimiters_on_one_line_are_placed_in_one_pass() -> None:
    # Each "\\(" counted and split the rest of its block to find its column.
    text = "# Delimiters\n\nQ " + "\\\\( " * 50_000 + "::: A\n"
    parsed = parse_text(text, Path("delimiters.md"), Path("."), "delimiters.md")
    columns = [d.column for d in parsed.diagnostics if d.code == "AG600"]
    assert columns == [3 + 4 * n for n in range(50_000)]


def test_a_formula_after_200000_opening_parentheses_is_glued_in_one_pass() -> None:
    # A search for the run of "(" ending the text tried every place of the run.
    before = "(" * 200_000 + "x ("
    glued = keep_punctuation(before, "<img>", ").")
    assert glued == ("(" * 200_000 + "x ", '<span class="ag-nowrap">(<img>).</span>', "")
