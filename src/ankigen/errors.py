"""The tool's tiny exception hierarchy.

Content problems are not exceptions: they are collected as diagnostics.
Exceptions are for the command line being used wrongly, or for bugs.
"""


class AnkigenError(Exception):
    """Base class for errors ankigen reports without a traceback."""


class UsageError(AnkigenError):
    """The command line or project configuration is wrong (exit status 2)."""
