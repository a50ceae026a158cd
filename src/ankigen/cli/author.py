"""The author's loop on the command line: ``init``, ``preview``, ``watch`` and ``guide``.

Like ``ankigen.cli.app``, this module only parses options, prints and picks exit
codes; the work is done in ``ankigen.commands``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ankigen.build.discover import discover
from ankigen.build.paths import display_path, shown_path
from ankigen.cli.options import (
    build_flags,
    figure_format_option,
    figures_option,
    format_option,
    math_option,
    no_cache_option,
    paths_argument,
    resolve,
    strict_option,
)
from ankigen.cli.terminal import echo, echo_json, visible
from ankigen.commands.build import BuildResult
from ankigen.diagnostics import Diagnostic
from ankigen.errors import UsageError

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

    The whole content format: ankigen guide.
    """
    try:
        from ankigen.commands.init import create_project

        project = create_project(directory)
    except UsageError as exc:
        raise click.UsageError(visible(str(exc))) from None
    except OSError as exc:
        echo(f"init failed: cannot write {exc.filename or directory}: {exc.strerror}", err=True)
        sys.exit(1)
    for path in project.files:
        echo(f"created {path}")
    if not project.install.reachable:
        workflow = directory / ".github" / "workflows" / "decks.yml"
        echo(
            f"\nNote: {workflow} installs ankigen from a folder on this machine, which "
            "GitHub's runners cannot reach: before you push, write in its 'Install ankigen' "
            "steps a URL they can (ankigen's git repository at a commit, or a release)."
        )
    where = "" if directory == Path(".") else f"cd {directory} && "
    echo(
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
@no_cache_option
def preview(
    paths: tuple[Path, ...],
    preview_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool | None,
    no_cache: bool,
) -> None:
    """Write OUT/preview/<stem>.html: every card of each deck, front and back.

    Each card is rendered exactly as Anki renders it (every cloze number,
    the note type's CSS, MathJax for mathjax decks from the page's own
    folder, no network), with its FILE:LINE, and switches for night mode and
    phone width. A table of contents lists the sections and callouts (cards
    with warnings first); a search box and filters by tag and by problem
    narrow the cards; each card has a stable link (#card-<id>). An item with
    an error is shown in its place with its message; prose (blocks on no
    card) is shown between the cards. Open the page in any browser; no deck
    is written.

    \b
    Example:
      ankigen preview && xdg-open build/preview/statistics.html
      ankigen preview --math mathjax content/statistics.md
      ankigen preview --no-cache     # every formula drawn again; OUT/.cache untouched

    The whole content format: ankigen guide.
    """
    with _usage_errors():
        options = resolve(
            paths, None, figures_dir, math, figure_format, strict, write=False, no_cache=no_cache
        )
        from ankigen.commands.preview import preview as run_preview

        result = run_preview(options, preview_dir or options.out_dir / "preview")
    print_diagnostics(result.build.diagnostics)
    print_pages(result)
    if result.build.failed:
        echo(
            f"Preview found {_errors(result.build)}: each broken item is shown in its place "
            "on its deck's page.",
            err=True,
        )
        sys.exit(1)


def print_diagnostics(diagnostics: tuple[Diagnostic, ...]) -> None:
    """Each problem as FILE:LINE:COL: message, on standard error."""
    for diagnostic in diagnostics:
        echo(diagnostic.format(), err=True)


def print_pages(result: PreviewResult) -> None:
    """One line per page written."""
    for page in result.pages:
        echo(f"preview {shown_path(page.path)} ({page.cards} card{'' if page.cards == 1 else 's'})")


def _errors(result: BuildResult) -> str:
    count = sum(d.is_error for d in result.diagnostics)
    return f"{count} error{'' if count == 1 else 's'}"


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Usage errors exit 2 with click's message; an unwritable folder exits 1, plainly."""
    try:
        yield
    except UsageError as exc:
        raise click.UsageError(visible(str(exc))) from None
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        echo(f"Failed: cannot write{where}: {exc.strerror or exc}", err=True)
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
    no_cache: bool,
) -> None:
    """Rebuild the decks and their preview on every save, until Ctrl-C.

    Watches the content files, the images beside them and the figure
    scripts. Each rebuild prints its problems and keeps going, so fix and
    save again; a failed rebuild leaves the last good decks and preview. An
    open preview page (OUT/preview/<stem>.html) updates itself after each
    rebuild (the changed cards in place, or a reload).

    \b
    Example:
      ankigen watch                  # then open build/preview/<stem>.html
      ankigen watch --math mathjax content/statistics.md
      ankigen watch --no-cache       # every rebuild afresh; OUT/.cache untouched

    The whole content format: ankigen guide.
    """
    from ankigen.commands.watch import watch as run_watch
    from ankigen.commands.watch import watched_folders

    with _usage_errors():
        options = resolve(
            paths, out_dir, figures_dir, math, figure_format, strict, no_cache=no_cache
        )
        discover(options.paths)  # a missing path is a usage error, before watching starts
        folders = watched_folders(options)
    shown = ", ".join(display_path(folder) for folder in folders)
    echo(f"watching {shown} (Ctrl-C to stop)")
    try:
        run_watch(options, options.out_dir / "preview", lambda r: print_rebuild(r, output_format))
    except KeyboardInterrupt:
        echo("stopped watching")
    sys.exit(0)


def print_rebuild(rebuild: Rebuild, output_format: str = "text") -> None:
    """What one rebuild found and wrote, then that the watch goes on."""
    if rebuild.changed:
        echo("changed: " + ", ".join(display_path(path) for path in rebuild.changed))
    if rebuild.build is None:
        echo(f"rebuild failed: {rebuild.problem}; waiting for changes", err=True)
        return
    result = rebuild.build
    if output_format == "json":
        echo_json({"diagnostics": [d.to_record() for d in result.diagnostics]}, indent=None)
    elif output_format == "github":
        for diagnostic in result.diagnostics:
            echo(diagnostic.format_github())
    else:
        print_diagnostics(result.diagnostics)
    if result.failed:
        for page in rebuild.pages:
            echo(f"preview {display_path(page.path)} ({page.cards} cards)")
        echo(
            f"rebuild failed: {_errors(result)}; the last good decks stay; the preview "
            "shows each broken item in its place; waiting for changes",
            err=True,
        )
        return
    for deck in result.written:
        echo(f"wrote {display_path(deck.path)} ({deck.notes} notes, {deck.cards} cards)")
    for page in rebuild.pages:
        echo(f"preview {display_path(page.path)} ({page.cards} cards)")
    if not result.written:
        echo("decks already up to date")
    echo("waiting for changes")


@click.command()
@click.argument("topic", nargs=-1)
def guide(topic: tuple[str, ...]) -> None:
    """Print the author's guide: the content format, its checks, limits and codes.

    Without TOPIC, the guide's opening and its list of topics. A TOPIC is a
    section number (12, 13.2), words of a section's title (cloze, front
    matter) or a short name (codes, limits, checks); 'all' prints the whole
    guide. On a terminal the text is shown in a pager.

    \b
    Example:
      ankigen guide                 # the topics
      ankigen guide cloze           # section 6, cloze items
      ankigen guide codes           # every diagnostic code and its fix
    """
    from ankigen.guide import UnknownTopic, topic_text

    try:
        text = topic_text(" ".join(topic) or None)
    except UnknownTopic as exc:
        hint = f" Did you mean: {', '.join(exc.suggestions)}?" if exc.suggestions else ""
        raise click.UsageError(  # the topic is whatever was typed or pasted: escaped
            visible(f"no guide topic '{exc.topic}'.{hint} 'ankigen guide' lists the topics.")
        ) from None
    if sys.stdout.isatty():
        click.echo_via_pager(text)
    else:
        echo(text.removesuffix("\n"))  # echo ends the line itself


COMMANDS = (init, preview, watch, guide)
