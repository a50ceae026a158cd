"""The tool's tiny exception hierarchy.

Content problems are not exceptions: they are collected as diagnostics.
Exceptions are for the command line being used wrongly, or for bugs.
"""


class AnkigenError(Exception):
    """Base class for errors ankigen reports without a traceback."""


class UsageError(AnkigenError):
    """The command line or project configuration is wrong (exit status 2)."""


class FormulaNotCompiled(AnkigenError):
    """A figure called a ``formulas`` name that could not be made into a function.

    ``str()`` says which, where it is defined and why, for the figure's error.
    """


class UncompiledFormula:
    """Stands in a figure's ``formulas`` for a name that failed: calling it says why.

    The check stage reports the formula's own error at its line; a figure
    that uses the name gets this error at the figure's line instead of a
    ``KeyError`` and a traceback.
    """

    def __init__(self, name: str, line: int, problem: str) -> None:
        self.name, self.line, self.problem = name, line, problem

    def __call__(self, *args: object, **kwargs: object) -> float:
        """Raise :class:`FormulaNotCompiled`: there is no function to call."""
        raise FormulaNotCompiled(
            f"uses formula '{self.name}', which has an error at line {self.line}: "
            f"{self.problem}; correct the formula"
        )
