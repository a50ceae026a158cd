"""The author's loop on the command line: ``init``, ``preview`` and ``watch``.

Like ``ankigen.cli``, this module only parses options, prints and picks exit
codes; the work is done in ``ankigen.commands``.
"""

from __future__ import annotations

from pathlib import Path

import click

from ankigen.commands.init import create_project
from ankigen.errors import UsageError


@click.command()
@click.argument("directory", default=".", type=click.Path(path_type=Path))
def init(directory: Path) -> None:
    """Start a new deck project in DIRECTORY (default: the current folder).

    Writes pyproject.toml ([tool.ankigen]), a sample content file that shows
    every construct of the format, a figure script, an image, .gitignore and
    a GitHub Actions workflow that builds the decks with --strict and
    attaches them to a release on tags. The project builds at once. Existing
    files are never overwritten.

    \b
    Example:
      ankigen init statistics && cd statistics
      ankigen build && ankigen check --strict

    The whole content format: docs/format.md in the ankigen sources.
    """
    try:
        project = create_project(directory)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.UsageError(
            f"cannot write {exc.filename or directory}: {exc.strerror}"
        ) from None
    for path in project.files:
        click.echo(f"created {path}")
    where = "" if directory == Path(".") else f"cd {directory} && "
    click.echo(
        f"\nNext: {where}ankigen build     (writes build/{project.key}.apkg)\n"
        "      ankigen preview   (every card as Anki shows it, in build/preview/)\n"
        "      ankigen watch     (rebuild and refresh the preview on every save)"
    )


COMMANDS = (init,)
