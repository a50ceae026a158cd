"""``ankigen import`` on the command line: options, messages and exit status only."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ankigen.build.paths import display_path
from ankigen.cli.terminal import echo, visible
from ankigen.errors import UsageError
from ankigen.importers.apkg import UnreadableDeck
from ankigen.importers.formats import FORMATS


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--from",
    "source_format",
    type=click.Choice(FORMATS),
    default=None,
    help="The source's format (default: apkg for a .apkg file, else auto: guessed, and said).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("content"),
    show_default=True,
    help="Folder to write the content files (one per deck) and their images into.",
)
def import_command(source: Path, source_format: str | None, out: Path) -> None:
    """Write SOURCE (an .apkg, or another tool's markdown or JSON) as content files.

    Every note keeps the GUID it had (a `guid:` in its metadata comment where its
    id cannot give it), so a deck built from the result updates the learners'
    notes in place where they were ankigen's own note types (see docs/import.md
    for other types). Scheduling is never read. What could not be carried over is
    a warning at the source's line; the files are written with `claims: off`.
    Formats: ankdown, hashcards, obsidian-to-anki, mdanki, crowdanki, auto.
    Build the result with `ankigen build --skip-broken` first: an item ankigen
    refuses is left out with a `left out:` line saying how to fix it.

    \b
    Example:
      ankigen import "Cell biology.apkg"            # into content/
      ankigen import --from ankdown ~/Flashcards/Optics --out content/optics
      ankigen build content/optics --skip-broken

    Each format, with a worked example: docs/import.md in the ankigen sources.
    The whole content format: ankigen guide.
    """
    from ankigen.commands.import_ import run_import

    try:
        report = run_import(source, out, source_format)
    except (UsageError, UnreadableDeck) as exc:
        raise click.UsageError(visible(str(exc))) from None  # a file name can hold escapes
    except OSError as exc:  # the source or --out cannot be read or written: say so plainly
        where = f" {exc.filename}" if exc.filename else ""
        echo(f"Import failed:{where}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        echo(f"Interrupted; what was written so far is in {display_path(out)}.", err=True)
        sys.exit(130)
    if report.guessed:
        echo(f"Guessed the source format: {report.guessed}", err=True)
    for diagnostic in report.diagnostics:
        echo(diagnostic.format(), err=True)
    for path in report.files:
        echo(f"wrote {display_path(path)}")
    errors = sum(1 for d in report.diagnostics if d.is_error)
    warnings = len(report.diagnostics) - errors
    echo(
        f"Imported {report.items} items into {len(report.files)} content files "
        f"({len(report.media)} media files); {report.notes} read back as notes; "
        f"{warnings} warnings, {errors} errors."
    )
    sys.exit(1 if errors else 0)
