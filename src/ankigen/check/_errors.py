"""Exceptions that carry a content problem of one statement to its diagnostic."""

from __future__ import annotations

from ankigen.diagnostics import Code

#: Code of a statement that cannot be decided as written (format section 13.2).
CANNOT_DECIDE = Code.CANNOT_DECIDE
#: Code of a statement that does not follow the grammar, with no more specific code.
SYNTAX = Code.CHECK_SYNTAX
#: Code of the error for a quote in a formulas block (which belongs to no item).
QUOTE_IN_FORMULAS = Code.QUOTE_IN_FORMULAS
#: Codes of the other ways a block can go wrong (format section 13.2).
CHECK_FAILED = Code.CHECK_FAILED
GAVE_UP = Code.CHECK_TIME_LIMIT
TOO_DEEP = Code.EXPRESSION_TOO_DEEP
TOO_LARGE = Code.NUMBER_TOO_LARGE
NOT_A_LET = Code.NOT_A_LET
ALREADY_DEFINED = Code.ALREADY_DEFINED
CANNOT_EVALUATE = Code.ALGEBRA_FAILED
FORMULA_NOT_COMPILED = Code.FORMULA_NOT_COMPILED
#: Code of a statement the deck's time budget (check-deck-time-limit) stopped.
DECK_TIME_LIMIT = Code.CHECK_DECK_TIME_LIMIT


class StatementError(Exception):
    """A statement cannot be checked; ``str()`` is the message for its line.

    ``message`` is made from ``code``'s template (``Code.X.message``; see
    :func:`undecided` for the general case). ``column`` (1-based, 0 when
    unknown) and ``code`` (:data:`CANNOT_DECIDE` for the general ones) go to
    the diagnostic.
    """

    def __init__(self, message: str, *, column: int = 0, code: Code = CANNOT_DECIDE) -> None:
        super().__init__(message)
        self.column = column
        self.code = code


def undecided(detail: str, *, column: int = 0) -> StatementError:
    """A statement that cannot be decided as written (code :data:`CANNOT_DECIDE`).

    ``detail`` says why; it is the whole message.
    """
    return StatementError(CANNOT_DECIDE.message(detail=detail), column=column)


class StatementSyntaxError(StatementError):
    """A statement does not follow the grammar; points at a column (1-based).

    Its message is ``code``'s template filled with the column and ``detail``
    (``syntax error at column N: ...``): every code raised this way has that
    template.
    """

    def __init__(self, column: int, detail: str, *, code: Code = SYNTAX) -> None:
        super().__init__(code.message(column=column, detail=detail), column=column, code=code)
        self.detail = detail
