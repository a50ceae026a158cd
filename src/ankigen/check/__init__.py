"""The formula checker: runs every ``check`` block of a deck (format section 12).

``check_deck`` parses each statement with the checker's own tokenizer and
recursive-descent parser (``_lexer``, ``_grammar``), builds sympy objects from
the syntax tree (``_sympy``), decides each assertion (``_evaluate``) under a
time limit (``ankigen.build.timelimit``), matches the quotes of the card (format section 12)
against the item's claims and warns about each claim no check quotes or cites
(``_coverage``), and compiles the ``formulas`` names for figures
(``_compile``). Quoted formulas are read by a TeX grammar of the checker's
own (``_tex_lexer``, ``_tex``). Author text is never given to ``eval``,
``exec``, ``sympify`` or ``parse_expr``.
"""

from __future__ import annotations

from types import MappingProxyType

from ankigen.build.timelimit import TimeLimits
from ankigen.diagnostics import Sink, sort_diagnostics
from ankigen.model import CheckReport, Deck

from ._coverage import unverified_claims, warn_unverified
from .figure_literals import figure_literals
from .proven import ItemRun, ProvenChecks

__all__ = ["DEFAULT_TIME_LIMIT", "ProvenChecks", "check_deck", "figure_literals"]

#: Seconds one statement (or one formula's compilation) may take.
DEFAULT_TIME_LIMIT = TimeLimits.check_statement


def check_deck(
    deck: Deck,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    deck_time_limit: float = TimeLimits.check_deck,
    proven: ProvenChecks | None = None,
) -> CheckReport:
    """Run every check of ``deck``, compile its formulas and report all problems.

    Each statement may take ``time_limit`` seconds, and all of them together
    ``deck_time_limit``. With ``proven``, an item whose checks passed before,
    unchanged, is not run again (``check.proven``), and the passing items of
    this run are recorded for the next.
    """
    sink = Sink(deck.display_path)
    known = proven.known(deck, time_limit) if proven is not None else {}
    if not deck.formulas and all(i in known for i, item in enumerate(deck.items) if item.checks):
        # Nothing (new) to prove: no sympy; a claim with no check is unverified.
        return _without_sympy(deck, known, sink)
    from ._run import run_checks

    outcome = run_checks(deck, sink, time_limit, deck_time_limit, known)
    if proven is not None:
        proven.record(deck, time_limit, {**known, **outcome.items})
    return CheckReport(
        diagnostics=tuple(sort_diagnostics(sink.diagnostics)),
        formulas=MappingProxyType(outcome.formulas),
        items=len(deck.items),
        checks=outcome.checks,
        failed=outcome.failed,
        quotes_missing=outcome.quotes_missing,
        unverified=unverified_claims(sink.diagnostics),
    )


def _without_sympy(deck: Deck, known: dict[int, ItemRun], sink: Sink) -> CheckReport:
    """The report of a deck whose every check has a recorded passing run (or that has none)."""
    for index, item in enumerate(deck.items):
        recorded = known.get(index)
        if recorded is None:
            warn_unverified(sink, item, (), deck.claims)
        else:
            for diagnostic in recorded.diagnostics:
                sink.add(diagnostic)
    return CheckReport(
        tuple(sort_diagnostics(sink.diagnostics)),
        MappingProxyType({}),
        items=len(deck.items),
        checks=sum(run.checks for run in known.values()),
        unverified=unverified_claims(sink.diagnostics),
    )
