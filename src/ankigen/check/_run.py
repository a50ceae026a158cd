"""Running a deck's ``formulas`` and ``check`` blocks.

Kept apart from the package's entry point so that a deck with no checks
never pays for importing this. sympy itself is imported on first need: a
deck whose asserts all compare exact numbers (``_exact``) never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from ankigen.build.timelimit import Budget, TimeLimitExceeded, call_with_time_limit
from ankigen.check.proven import ItemRun
from ankigen.diagnostics import Sink
from ankigen.errors import UncompiledFormula
from ankigen.model import ClaimLevel, CodeBlock, Deck

from . import _errors as codes
from ._ast import Assert, Cite, Let, Statement
from ._coverage import quotes_of, report_coverage
from ._errors import StatementError
from ._exact import holds_exactly
from ._grammar import defined_name, defined_name_column, parse_statement
from ._macro_quotes import NO_EXPANSIONS, Expansions
from ._occurrences import Occurrences
from ._soundness import (
    LITERAL_ONLY,
    UNUSED_WHERE,
    compares_only_literals,
    unused_where,
)
from ._weak_proofs import unbound_premises, weak_proof_warnings

if TYPE_CHECKING:  # the modules that load sympy are imported where they are used
    from ._sympy import Definition

T = TypeVar("T")


@dataclass
class Outcome:
    """What running a deck's blocks found besides its problems: compiled formulas, counters."""

    formulas: dict[str, Callable[..., float]] = field(default_factory=dict)
    checks: int = 0
    failed: int = 0
    quotes_missing: int = 0  # quotes of what the card does not show
    #: What each item with checks found when it ran here, by item index.
    items: dict[int, ItemRun] = field(default_factory=dict)


def run_checks(
    deck: Deck,
    sink: Sink,
    time_limit: float,
    deck_time_limit: float,
    known: Mapping[int, ItemRun] = MappingProxyType({}),
) -> Outcome:
    """Define the formulas, compile them for figures, and decide every assert.

    Every problem is reported in ``sink``, the deck's. An item in ``known``
    (by index) is not run again: its recorded run stands.
    """
    run = _Run(sink, time_limit, Budget(deck_time_limit))
    scope: dict[str, Definition] = {}
    for block in deck.formulas:
        run.formulas_block(block, scope)
    formulas = run.compile_formulas(scope)
    ran: dict[int, ItemRun] = {}
    missing = 0
    for index, item in enumerate(deck.items):
        if index in known:
            run.replay(known[index])
            continue
        before = (len(sink.diagnostics), run.checks, run.failed)
        occurrences = Occurrences(item, deck.claims)
        for block in item.checks:
            run.check_block(block, dict(scope), occurrences)
        report_coverage(sink, occurrences)
        missing += len(occurrences.missing)
        if item.checks:
            found = tuple(sink.diagnostics[before[0] :])
            ran[index] = ItemRun(found, run.checks - before[1], run.failed - before[2])
    return Outcome(formulas, run.checks, run.failed, missing, ran)


class _Run:
    """The state of checking one deck: where its problems go, and its counters."""

    def __init__(self, sink: Sink, time_limit: float, budget: Budget) -> None:
        self.sink = sink
        self.time_limit = time_limit
        self.budget = budget
        self.checks = 0
        self.failed = 0
        self.code = ""  # the code of the last guarded failure, if it had one
        self.column = 0  # and its column
        self.broken: dict[str, str] = {}  # a `let` that did not parse: its name, its error

    def replay(self, recorded: ItemRun) -> None:
        """Count an item's earlier run as if it ran now."""
        for diagnostic in recorded.diagnostics:
            self.sink.add(diagnostic)
        self.checks += recorded.checks
        self.failed += recorded.failed

    def report(self, line: int, message: str, *, code: str, column: int = 0) -> None:
        """Record an error at ``line``."""
        self.sink.error(line, message, column=column, code=code)

    def warn(self, line: int, message: str, *, column: int, code: str) -> None:
        """Record a warning at ``line``."""
        self.sink.warning(line, message, column=column, code=code)

    def formulas_block(self, block: CodeBlock, scope: dict[str, Definition]) -> None:
        """Add a ``formulas`` block's names to the file-wide scope."""
        for line, text in _lines(block):
            statement = self.parse(line, text, scope, NO_EXPANSIONS)  # it quotes nothing
            if isinstance(statement, Assert | Cite):
                message = codes.NOT_A_LET.message()
                column = len(text) - len(text.lstrip()) + 1
                self.report(line, message, column=column, code=codes.NOT_A_LET)
            elif isinstance(statement, Let) and statement.quotes:
                message = codes.QUOTE_IN_FORMULAS.message()
                column = statement.quotes[0].column
                self.report(line, message, column=column, code=codes.QUOTE_IN_FORMULAS)

    def check_block(
        self, block: CodeBlock, scope: dict[str, Definition], occurrences: Occurrences
    ) -> None:
        """Run a ``check`` block of an item; its ``let`` names live in ``scope``, a copy.

        Each quote its statements make covers an occurrence on the card (``occurrences``).
        """
        expansions = dict(block.expansions)  # its quotes, macros expanded (format §17)
        for line, text in _lines(block):
            words = text.split("#", 1)[0].split()
            is_assert = words[:1] == ["assert"] or text.lstrip().startswith("$")
            statement = self.parse(line, text, scope, expansions)
            found = [occurrences.take(quote, line) for quote in quotes_of(statement)]
            missing = not all(found)
            if isinstance(statement, Assert | Let) and occurrences.level is ClaimLevel.ALL:
                for column, message, code in unbound_premises(statement, occurrences):
                    self.warn(line, message, column=column, code=code)
            if isinstance(statement, Assert):
                self.soundness(line, text, statement, scope)
                failed_before = self.failed
                self.run_assert(line, statement, scope, len(text) - len(text.lstrip()) + 1)
                if missing and self.failed == failed_before:
                    self.failed += 1  # it holds, but not of this card
            elif is_assert and statement is None:  # an assert that did not parse
                self.checks += 1
                self.failed += 1

    def soundness(
        self, line: int, text: str, statement: Assert, scope: Mapping[str, Definition]
    ) -> None:
        """Warn about an assertion that holds without proving what it seems to."""
        for binding, message in unused_where(statement, scope):
            self.warn(line, message, column=binding.column, code=UNUSED_WHERE)
        column = text.find(statement.text) + 1
        if compares_only_literals(statement):
            self.warn(
                line, LITERAL_ONLY.message(text=statement.text), column=column, code=LITERAL_ONLY
            )
        for at, message, code in weak_proof_warnings(statement, scope):
            # -1: at the 'within' clause; 0: at the statement
            where = text.find("within") + 1 if at < 0 else at or column
            self.warn(line, message, column=where, code=code)

    def parse(
        self, line: int, text: str, scope: dict[str, Definition], expansions: Expansions
    ) -> Statement | None:
        """Parse one line (its quotes read with ``expansions``) and define its ``let``;
        report problems, return None then."""
        try:
            statement = parse_statement(text, expansions)
        except StatementError as exc:
            # A problem of the whole statement (no column of its own) is at its start.
            column = exc.column or len(text) - len(text.lstrip()) + 1
            self.report(line, str(exc), column=column, code=exc.code)
            name = defined_name(text)
            if name is not None and name not in scope:
                self.broken[name] = str(exc)
                self.load_sympy()
                from ._sympy import Definition

                # Later uses say the definition is broken, not "free symbol".
                scope[name] = Definition(name, None, line, MappingProxyType({}))
            return None
        if isinstance(statement, Let):
            self.define(line, statement, scope, defined_name_column(text))
        return statement

    def define(self, line: int, let: Let, scope: dict[str, Definition], column: int) -> None:
        """Add a ``let`` (its name at ``column``) to ``scope``, unless the name is visible."""
        earlier = scope.get(let.name)
        if earlier is not None:
            self.report(
                line,
                codes.ALREADY_DEFINED.message(name=let.name, line=earlier.line),
                column=column,
                code=codes.ALREADY_DEFINED,
            )
            return
        self.load_sympy()
        from ._sympy import Definition

        # The body sees the names defined before it, never later ones.
        scope[let.name] = Definition(let.name, let.value, line, MappingProxyType(dict(scope)))

    def run_assert(
        self, line: int, statement: Assert, scope: Mapping[str, Definition], start: int = 0
    ) -> None:
        """Decide one assertion; a failure with no column of its own points at ``start``."""
        self.checks += 1
        if min(self.time_limit, self.budget.remaining()) > 0 and holds_exactly(statement):
            return  # proved with exact fractions; anything else is sympy's to decide
        self.load_sympy()
        from ._evaluate import run_assert

        frozen = MappingProxyType(dict(scope))
        outcome, problem = self.guarded(partial(run_assert, statement, frozen))
        problem = problem or outcome
        if problem is not None:
            self.failed += 1
            # An outcome (no guarded problem) is an assertion that does not hold.
            column = self.column or start
            self.report(line, problem, column=column, code=self.code or codes.CHECK_FAILED)

    def guarded(self, work: Callable[[], T]) -> tuple[T | None, str | None]:
        """Run ``work``: its result, or the message for every way it can go wrong.

        The code of the problem (and the column of a StatementError that
        carries one) are left in ``self.code`` and ``self.column``.
        """
        self.code, self.column = "", 0
        # Each statement gets its own limit, cut short by what is left of the deck's.
        limit = min(self.time_limit, self.budget.remaining())
        if limit <= 0:
            return None, self.over_budget("not checked")
        try:
            return call_with_time_limit(work, limit), None
        except StatementError as exc:
            self.code, self.column = exc.code, exc.column
            return None, str(exc)
        except TimeLimitExceeded:
            if limit < self.time_limit:
                return None, self.over_budget("gave up")
            self.code = codes.GAVE_UP
            return None, codes.GAVE_UP.message(limit=self.time_limit)
        except RecursionError:
            self.code = codes.TOO_DEEP
            return None, codes.TOO_DEEP.message()
        except OverflowError:
            self.code = codes.TOO_LARGE
            return None, codes.TOO_LARGE.message()
        except Exception as exc:  # sympy can fail in many ways; never a traceback
            self.code = codes.CANNOT_EVALUATE
            return None, codes.CANNOT_EVALUATE.message(error=type(exc).__name__, detail=exc)

    def load_sympy(self) -> None:
        """Import the sympy side of the checker once; its seconds cost the deck's budget nothing."""
        with self.budget.excluded():
            from . import _compile, _evaluate  # noqa: F401

    def over_budget(self, what: str) -> str:
        """The message of a statement the deck's time budget stopped; its code in ``self.code``."""
        self.code = codes.DECK_TIME_LIMIT
        return codes.DECK_TIME_LIMIT.message(what=what, limit=self.budget.seconds)

    def compile_formulas(self, scope: Mapping[str, Definition]) -> dict[str, Callable[..., float]]:
        """Compile every defined ``formulas`` name for figures.

        A name that failed (its ``let`` has an error, or it cannot be made
        into a function) maps to an :class:`UncompiledFormula`, which tells
        a figure calling it why, at the figure's line.
        """
        compiled: dict[str, Callable[..., float]] = {}
        if not scope:
            return compiled
        self.load_sympy()
        from ._compile import compile_formula

        for name, definition in scope.items():
            if definition.value is None:
                why = self.broken.get(name, "its definition has an error")
                compiled[name] = UncompiledFormula(name, definition.line, why)
                continue
            formula, problem = self.guarded(partial(compile_formula, definition))
            if formula is None:
                message = codes.FORMULA_NOT_COMPILED.message(name=name, problem=problem)
                self.report(definition.line, message, code=codes.FORMULA_NOT_COMPILED)
                compiled[name] = UncompiledFormula(name, definition.line, str(problem))
            else:
                compiled[name] = formula
        return compiled


def _lines(block: CodeBlock) -> list[tuple[int, str]]:
    """Each line of a block with its line number in the content file."""
    return [(block.line + n, text) for n, text in enumerate(block.text.splitlines())]
