"""The table of diagnostic codes in ``docs/format.md`` section 13.2, written from the registry.

The table is generated, never edited by hand: change a code's summary or fix
in ``codes.py``, then run ``python -m ankigen.diagnostics.table docs/format.md``
to rewrite the table in place.
``tests/diagnostics/test_codes.py`` fails while the two differ. The shipped
guide (``ankigen guide codes``) is a link to ``docs/format.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ankigen.diagnostics.codes import Code

#: The table's heading row and its separator, which stay as written in the document.
HEADER = "| code | severity | meaning | how to fix the input |\n|---|---|---|---|\n"


def table_row(code: Code) -> str:
    """One code's line of the table."""
    return f"| `{code}` | {code.severity.value} | {code.summary} | {code.fix} |\n"


def code_table() -> str:
    """The whole table, heading row first, one line per code in the order of their identifiers."""
    return HEADER + "".join(table_row(code) for code in sorted(Code))


def with_code_table(document: str) -> str:
    """``document`` with the table of codes after its ``HEADER`` replaced by ``code_table()``.

    The table ends at its first line that is not a row of codes; a document
    without the heading row raises ``ValueError``.
    """
    start = document.index(HEADER)
    lines = document[start + len(HEADER) :].splitlines(keepends=True)
    rows = 0
    while rows < len(lines) and lines[rows].startswith("| `"):
        rows += 1
    end = start + len(HEADER) + sum(len(line) for line in lines[:rows])
    return document[:start] + code_table() + document[end:]


def main(paths: list[str]) -> int:
    """Rewrite the table of codes in each file of ``paths`` (a file in step is left as it is)."""
    if not paths:
        raise SystemExit("usage: python -m ankigen.diagnostics.table FILE.md...")
    for name in paths:
        path = Path(name)
        text = path.read_text("utf-8")
        updated = with_code_table(text)
        if updated != text:
            path.write_text(updated, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
