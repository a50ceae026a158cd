"""A content file that cannot be read, or is not UTF-8, is one diagnostic and no deck."""

from __future__ import annotations

from pathlib import Path

from ankigen.diagnostics import error
from ankigen.parse import parse_file


def test_a_file_that_is_not_utf8_names_the_byte_and_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes(b"# Not UTF-8\n\nCaf\xe9 ::: a place for coffee\n")
    result = parse_file(path, tmp_path, "latin1.md")
    assert result.deck is None
    assert result.diagnostics == (
        error(
            "latin1.md",
            3,
            "not UTF-8 text (byte 0xe9); save the file as UTF-8",
            column=4,
            code="AG102",
        ),
    )


def test_the_column_of_a_bad_byte_counts_the_characters_before_it(tmp_path: Path) -> None:
    path = tmp_path / "mixed.md"
    path.write_bytes("\ufeff# Été\n".encode() + b"\xc3\xa9t\xe9\n")
    [diagnostic] = parse_file(path, tmp_path, "mixed.md").diagnostics
    assert (diagnostic.line, diagnostic.column) == (2, 3)


def test_a_file_that_cannot_be_read_says_why(tmp_path: Path) -> None:
    result = parse_file(tmp_path / "missing.md", tmp_path, "missing.md")
    assert result.deck is None
    assert result.diagnostics == (
        error(
            "missing.md", 1, "cannot read file: No such file or directory", column=1, code="AG101"
        ),
    )
