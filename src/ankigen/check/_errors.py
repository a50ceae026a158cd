"""Exceptions that carry a content problem of one statement to its diagnostic."""

from __future__ import annotations

#: Code of a statement that cannot be decided as written (format section 13.2).
CANNOT_DECIDE = "AG212"
#: Code of a statement that does not follow the grammar, with no more specific code.
SYNTAX = "AG211"
#: Code of the error for a quote in a formulas block (which belongs to no item).
QUOTE_IN_FORMULAS = "AG209"
#: Codes of the other ways a block can go wrong (format section 13.2).
CHECK_FAILED = "AG210"
GAVE_UP = "AG213"
TOO_DEEP = "AG214"
TOO_LARGE = "AG215"
NOT_A_LET = "AG216"
ALREADY_DEFINED = "AG217"
CANNOT_EVALUATE = "AG218"
FORMULA_NOT_COMPILED = "AG219"
#: Code of a statement the deck's time budget (check-deck-time-limit) stopped.
DECK_TIME_LIMIT = "AG661"


class StatementError(Exception):
    """A statement cannot be checked; ``str()`` is the message for its line.

    ``column`` (1-based, 0 when unknown) and ``code`` (a stable diagnostic
    code such as ``AG204``; :data:`CANNOT_DECIDE` for the general ones) go to
    the diagnostic.
    """

    def __init__(self, message: str, *, column: int = 0, code: str = CANNOT_DECIDE) -> None:
        super().__init__(message)
        self.column = column
        self.code = code


class StatementSyntaxError(StatementError):
    """A statement does not follow the grammar; points at a column (1-based)."""

    def __init__(self, column: int, message: str, *, code: str = SYNTAX) -> None:
        super().__init__(f"syntax error at column {column}: {message}", column=column, code=code)
