"""The command line: the only part of ankigen that prints and picks exit codes.

``app`` is the click group and its build commands; ``author`` holds the
authoring commands (``init``, ``preview``, ``watch``, ``guide``), ``import_``
``ankigen import``; ``options`` the options several commands share, ``signals``
how Ctrl-C and SIGTERM end a run, and ``terminal`` every line printed.

The ``ankigen`` script and ``python -m ankigen`` call ``run``, which imports
the commands only when called: a worker of the build's pool is a spawned
interpreter that imports the main module again, and so it imports only what
its work needs (the parse's modules, about 0.3 s of CPU, not every command's,
about 0.6 s; ``tests/cli/test_entry_point.py``).
"""

__all__ = ["run"]


def run() -> None:
    """The ``ankigen`` command (``app.main``, the click group)."""
    from ankigen.cli.app import main

    main()
