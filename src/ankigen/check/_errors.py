"""Exceptions that carry a content problem of one statement to its diagnostic."""

from __future__ import annotations


class StatementError(Exception):
    """A statement cannot be checked; ``str()`` is the message for its line."""


class StatementSyntaxError(StatementError):
    """A statement does not follow the grammar; points at a column (1-based)."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"syntax error at column {column}: {message}")
        self.column = column
