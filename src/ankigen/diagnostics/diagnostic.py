"""The one problem type: every content problem, with the place it comes from.

One problem type for every stage. A diagnostic carries its file, line and
(where known) column, a severity, a stable code (a ``Code`` of the registry in
``ankigen.diagnostics.codes``, listed in ``docs/format.md``) and a message;
this module is also the one serializer for the three output formats (text,
JSON, GitHub workflow commands) and for the warnings an up-to-date deck
replays from its stamp.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    """How bad a diagnostic is: errors stop a build, warnings do not (unless strict)."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in content, located at ``file:line[:column]`` (1-based).

    ``column`` is 0 when only the line is known. ``detail`` holds extra lines
    (for example a figure script's traceback) printed indented under the
    message. ``code`` is a stable identifier such as ``AG101`` that CI and
    editors can select or ignore: a stage passes a ``Code`` of the registry to
    :func:`error`, :func:`warning` or a :class:`Sink`, which keep its plain
    identifier (caches store builtin strings only).
    """

    file: str
    line: int
    message: str
    severity: Severity = Severity.ERROR
    detail: str = ""
    column: int = 0
    code: str = ""

    @property
    def is_error(self) -> bool:
        """True when this diagnostic stops a build."""
        return self.severity is Severity.ERROR

    @property
    def location(self) -> str:
        """``FILE:LINE`` or ``FILE:LINE:COL``."""
        if self.column > 0:
            return f"{self.file}:{self.line}:{self.column}"
        return f"{self.file}:{self.line}"

    def format(self) -> str:
        """Render as ``FILE:LINE[:COL]: message`` with any detail indented below."""
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        head = f"{self.location}: {prefix}{self.message}"
        if not self.detail:
            return head
        body = "\n".join("    " + line for line in self.detail.rstrip("\n").splitlines())
        return f"{head}\n{body}"

    def format_github(self) -> str:
        """Render as a GitHub Actions workflow command (an annotation on the pull request).

        Syntax: ``::error file=F,line=L,col=C,title=T::message``. Property values
        escape ``%``, CR, LF, ``:`` and ``,``; the message escapes ``%``, CR and LF.
        """
        props = [f"file={_github_property(self.file)}", f"line={self.line}"]
        if self.column > 0:
            props.append(f"col={self.column}")
        if self.code:
            props.append(f"title={_github_property(self.code)}")
        text = self.message if not self.detail else f"{self.message}\n{self.detail.rstrip()}"
        return f"::{self.severity.value} {','.join(props)}::{_github_data(text)}"

    def to_record(self) -> dict[str, object]:
        """A JSON-ready record (used by ``--format json`` and by build stamps)."""
        record: dict[str, object] = {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
        }
        if self.detail:
            record["detail"] = self.detail
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> Diagnostic:
        """The inverse of :meth:`to_record`."""
        return cls(
            file=str(record["file"]),
            line=int(str(record["line"])),
            message=str(record["message"]),
            severity=Severity(str(record.get("severity", "warning"))),
            detail=str(record.get("detail", "")),
            column=int(str(record.get("column", 0))),
            code=str(record.get("code", "")),
        )


def error(
    file: str, line: int, message: str, detail: str = "", *, column: int = 0, code: str = ""
) -> Diagnostic:
    """Shorthand for an error diagnostic."""
    return Diagnostic(file, line, message, Severity.ERROR, detail, column, str(code))


def warning(
    file: str, line: int, message: str, detail: str = "", *, column: int = 0, code: str = ""
) -> Diagnostic:
    """Shorthand for a warning diagnostic."""
    return Diagnostic(file, line, message, Severity.WARNING, detail, column, str(code))


@dataclass
class Sink:
    """Where the diagnostics of one file go, in the order they are found.

    A stage reports every problem through one sink instead of returning its
    own problem shapes. :meth:`below` gives a view for text that starts
    further down the file (front matter after its ``---``): its line 1 is
    that line of the file, and it reports into the same list.
    """

    file: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The line of the file that this sink's line 1 stands for.
    first_line: int = 1

    def error(
        self, line: int, message: str, *, code: str, column: int = 0, detail: str = ""
    ) -> None:
        """Report an error at ``line`` (and ``column``, 0 when unknown)."""
        self.report(Severity.ERROR, line, message, code=code, column=column, detail=detail)

    def warning(
        self, line: int, message: str, *, code: str, column: int = 0, detail: str = ""
    ) -> None:
        """Report a warning at ``line`` (and ``column``, 0 when unknown)."""
        self.report(Severity.WARNING, line, message, code=code, column=column, detail=detail)

    def report(
        self,
        severity: Severity,
        line: int,
        message: str,
        *,
        code: str,
        column: int = 0,
        detail: str = "",
    ) -> None:
        """Report a diagnostic of either severity."""
        at = line + self.first_line - 1
        # str(): a registry ``Code`` is kept as its plain identifier, as by error() and warning()
        diagnostic = Diagnostic(self.file, at, message, severity, detail, column, str(code))
        self.diagnostics.append(diagnostic)

    def add(self, diagnostic: Diagnostic) -> None:
        """Report a diagnostic made elsewhere, as it is (an image's ``Failed`` carries one)."""
        self.diagnostics.append(diagnostic)

    def below(self, line: int) -> Sink:
        """A sink for text whose first line is ``line`` of this sink's text."""
        return Sink(self.file, self.diagnostics, self.first_line + line - 1)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order by file, line and column (stable within a place), without duplicates."""
    unique = dict.fromkeys(diagnostics)
    return sorted(unique, key=lambda d: (d.file, d.line, d.column))


def strictly(diagnostics: Iterable[Diagnostic], strict: bool) -> list[Diagnostic]:
    """With ``--strict``, every warning of every stage counts as an error."""
    if not strict:
        return list(diagnostics)
    return [dataclasses.replace(d, severity=Severity.ERROR) for d in diagnostics]


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")
