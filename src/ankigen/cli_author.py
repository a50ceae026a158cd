"""The author's loop on the command line: ``init``, ``preview`` and ``watch``.

Like ``ankigen.cli``, this module only parses options, prints and picks exit
codes; the work is done in ``ankigen.commands``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ankigen.cli_options import (
    build_flags,
    figure_format_option,
    figures_option,
    format_option,
    math_option,
    paths_argument,
    resolve,
    strict_option,
)
from ankigen.commands.build import BuildResult
from ankigen.commands.discover import discover
from ankigen.diagnostics import Diagnostic
from ankigen.errors import UsageError
from ankigen.paths import display_path

if TYPE_CHECKING:  # each command loads its own module when it runs (a build loads none)
    from ankigen.commands.preview import PreviewResult
    from ankigen.commands.watch import Rebuild


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
        from ankigen.commands.init import create_project

        project = create_project(directory)
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        click.echo(
            f"init failed: cannot write {exc.filename or directory}: {exc.strerror}", err=True
        )
        sys.exit(1)
    for path in project.files:
        click.echo(f"created {path}")
    where = "" if directory == Path(".") else f"cd {directory} && "
    click.echo(
        f"\nNext: {where}ankigen build     (writes build/{project.key}.apkg)\n"
        "      ankigen preview   (every card as Anki shows it, in build/preview/)\n"
        "      ankigen watch     (rebuild and refresh the preview on every save)"
    )


@click.command()
@paths_argument
@click.option(
    "--out",
    "preview_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder for the pages (default: build/preview/ of the project).",
)
@figures_option
@math_option
@figure_format_option
@strict_option
def preview(
    paths: tuple[Path, ...],
    preview_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool | None,
) -> None:
    """Write OUT/preview/<stem>.html: every card of each deck, front and back.

    Each card is rendered exactly as Anki renders it (every cloze number,
    the note type's CSS, MathJax for mathjax decks from the page's own
    folder, no network), with its FILE:LINE, and switches for night mode and
    phone width. A table of contents lists the sections and callouts (cards
    with warnings first); a search box and filters by tag and by problem
    narrow the cards; each card has a stable link (#card-<id>). Open the
    page in any browser; no deck is written.

    \b
    Example:
      ankigen preview && xdg-open build/preview/statistics.html
      ankigen preview --math mathjax content/statistics.md

    The whole content format: docs/format.md in the ankigen sources.
    """
    with _usage_errors():
        options = resolve(paths, None, figures_dir, math, figure_format, strict, write=False)
        from ankigen.commands.preview import preview as run_preview

        result = run_preview(options, preview_dir or options.out_dir / "preview")
    print_diagnostics(result.build.diagnostics)
    if result.build.failed:
        click.echo(f"Preview failed: {_errors(result.build)}; no page was written.", err=True)
        sys.exit(1)
    print_pages(result)


def print_diagnostics(diagnostics: tuple[Diagnostic, ...]) -> None:
    """Each problem as FILE:LINE:COL: message, on standard error."""
    for diagnostic in diagnostics:
        click.echo(diagnostic.format(), err=True)


def print_pages(result: PreviewResult) -> None:
    """One line per page written."""
    for page in result.pages:
        click.echo(f"preview {page.path} ({page.cards} card{'' if page.cards == 1 else 's'})")


def _errors(result: BuildResult) -> str:
    count = sum(d.is_error for d in result.diagnostics)
    return f"{count} error{'' if count == 1 else 's'}"


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Usage errors exit 2 with click's message; an unwritable folder exits 1, plainly."""
    try:
        yield
    except UsageError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        click.echo(f"Failed: cannot write{where}: {exc.strerror or exc}", err=True)
        sys.exit(1)


@click.command()
@paths_argument
@build_flags
@format_option
def watch(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool | None,
    output_format: str,
) -> None:
    """Rebuild the decks and their preview on every save, until Ctrl-C.

    Watches the content files, the images beside them and the figure
    scripts. Each rebuild prints its problems and keeps going, so fix and
    save again; a failed rebuild leaves the last good decks and preview. An
    open preview page (OUT/preview/<stem>.html) reloads itself after each
    rebuild.

    \b
    Example:
      ankigen watch                  # then open build/preview/<stem>.html
      ankigen watch --math mathjax content/statistics.md

    The whole content format: docs/format.md in the ankigen sources.
    """
    from ankigen.commands.watch import watch as run_watch
    from ankigen.commands.watch import watched_folders

    with _usage_errors():
        options = resolve(paths, out_dir, figures_dir, math, figure_format, strict)
        discover(options.paths)  # a missing path is a usage error, before watching starts
        folders = watched_folders(options)
    shown = ", ".join(display_path(folder) for folder in folders)
    click.echo(f"watching {shown} (Ctrl-C to stop)")
    try:
        run_watch(options, options.out_dir / "preview", lambda r: print_rebuild(r, output_format))
    except KeyboardInterrupt:
        click.echo("stopped watching")
    sys.exit(0)


def print_rebuild(rebuild: Rebuild, output_format: str = "text") -> None:
    """What one rebuild found and wrote, then that the watch goes on."""
    if rebuild.changed:
        click.echo("changed: " + ", ".join(display_path(path) for path in rebuild.changed))
    if rebuild.build is None:
        click.echo(f"rebuild failed: {rebuild.problem}; waiting for changes", err=True)
        return
    result = rebuild.build
    if output_format == "json":
        click.echo(json.dumps({"diagnostics": [d.to_record() for d in result.diagnostics]}))
    elif output_format == "github":
        for diagnostic in result.diagnostics:
            click.echo(diagnostic.format_github())
    else:
        print_diagnostics(result.diagnostics)
    if result.failed:
        click.echo(
            f"rebuild failed: {_errors(result)}; the last good decks and preview stay; "
            "waiting for changes",
            err=True,
        )
        return
    for deck in result.written:
        click.echo(f"wrote {display_path(deck.path)} ({deck.notes} notes, {deck.cards} cards)")
    for page in rebuild.pages:
        click.echo(f"preview {display_path(page.path)} ({page.cards} cards)")
    if not result.written:
        click.echo("decks already up to date")
    click.echo("waiting for changes")


COMMANDS = (init, preview, watch)
