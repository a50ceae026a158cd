"""Diagnostics: every content problem, with the place it comes from and its code.

``diagnostic`` holds the one problem type and its serializers, ``codes`` the
registry of codes (one named object per kind of problem), ``table`` writes
the table of codes in ``docs/format.md`` from that registry.
"""

from __future__ import annotations

from ankigen.diagnostics.codes import Code
from ankigen.diagnostics.diagnostic import (
    Diagnostic,
    Severity,
    Sink,
    error,
    sort_diagnostics,
    strictly,
    warning,
)

__all__ = [
    "Code",
    "Diagnostic",
    "Severity",
    "Sink",
    "error",
    "sort_diagnostics",
    "strictly",
    "warning",
]
