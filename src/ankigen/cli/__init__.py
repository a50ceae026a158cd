"""The command line: the only part of ankigen that prints and picks exit codes.

``app`` is the click group and its build commands; ``author`` holds the
authoring commands (``init``, ``preview``, ``watch``, ``guide``), ``import_``
``ankigen import``; ``options`` the options several commands share, ``signals``
how Ctrl-C and SIGTERM end a run, and ``terminal`` every line printed.
"""

from ankigen.cli.app import main

__all__ = ["main"]
