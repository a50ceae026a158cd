"""Diagnostics: every content problem, with the place it comes from."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How bad a diagnostic is: errors stop a build, warnings do not (unless strict)."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in content, located at ``file:line`` (1-based).

    ``detail`` holds extra lines (for example a figure script's traceback) that
    are printed indented under the message.
    """

    file: str
    line: int
    message: str
    severity: Severity = Severity.ERROR
    detail: str = ""

    @property
    def is_error(self) -> bool:
        """True when this diagnostic stops a build."""
        return self.severity is Severity.ERROR

    def format(self) -> str:
        """Render as ``FILE:LINE: message`` with any detail indented below."""
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        head = f"{self.file}:{self.line}: {prefix}{self.message}"
        if not self.detail:
            return head
        body = "\n".join("    " + line for line in self.detail.rstrip("\n").splitlines())
        return f"{head}\n{body}"


def error(file: str, line: int, message: str, detail: str = "") -> Diagnostic:
    """Shorthand for an error diagnostic."""
    return Diagnostic(file, line, message, Severity.ERROR, detail)


def warning(file: str, line: int, message: str) -> Diagnostic:
    """Shorthand for a warning diagnostic."""
    return Diagnostic(file, line, message, Severity.WARNING)


def sort_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Order diagnostics by file, then line, keeping the order found within a line."""
    return sorted(diagnostics, key=lambda d: (d.file, d.line))
