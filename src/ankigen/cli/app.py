"""The command line: the only place that prints and picks exit codes.

Exit status: 0 ok, 1 content errors (or a deck that could not be written),
2 usage errors, 130 interrupted by Ctrl-C (SIGINT), 143 stopped by SIGTERM.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ankigen import __version__
from ankigen.build.paths import shown_path
from ankigen.cli.options import (
    build_flags,
    figures_option,
    format_option,
    jobs_option,
    paths_argument,
    resolve,
    strict_option,
)
from ankigen.cli.signals import interruptible
from ankigen.cli.terminal import echo, echo_json, visible
from ankigen.commands.build import BuildResult, WriteError, run
from ankigen.commands.diff import diff_files, diff_record, diff_summary
from ankigen.errors import UsageError
from ankigen.importers.apkg import UnreadableDeck

# The shared options live in ankigen.cli.options; these names stay for commands that
# still use them (note: --strict is now --strict/--no-strict with default None).
_PATHS = paths_argument
_STRICT = strict_option
_FORMAT = format_option
_FIGURES = figures_option

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar  # the type click.progressbar returns


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ankigen")
def main() -> None:
    """Build Anki decks from markdown question banks.

    Each content file (content/*.md) becomes one deck, build/<stem>.apkg.
    Folders come from [tool.ankigen] in the project's pyproject.toml (the
    nearest one above the content), else content/, figures/ and build/ there.

    \b
    Start a deck:   ankigen init my-deck && cd my-deck
    See the cards:  ankigen preview     (then open build/preview/*.html)
    Write and look: ankigen watch
    Release:        ankigen build --strict

    The whole content format: ankigen guide.
    """


@main.command()
@paths_argument
@build_flags
@click.option(
    "--against",
    type=click.Path(path_type=Path, exists=True),
    help="The release learners have (OLD.apkg, or a folder of them): print what "
    "importing the new deck over it will do; refuse a note type change under one id.",
)
@click.option(
    "--skip-broken",
    is_flag=True,
    help="Leave each item that has an error out of its deck (reported as "
    "'FILE:LINE:COL: left out: <the error>'), write every deck from the items that "
    "remain, and exit 1 if anything was left out. Not with --strict.",
)
@format_option
@jobs_option
def build(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool | None,
    output_format: str,
    against: Path | None,
    jobs: int | None,
    skip_broken: bool,
    no_cache: bool,
) -> None:
    """Build OUT/<stem>.apkg for each content file in PATHS (default: content/).

    Every check runs first; if any content error is found, no deck is
    written and the previous decks stay as they were. With --skip-broken,
    each item with an error is left out instead and the rest is written.

    \b
    Example:
      ankigen build                  # every content/*.md of this project
      ankigen build --strict         # as a release does: warnings fail
      ankigen build --skip-broken    # a migrated bank: build what works
      ankigen build -j 1             # parse and draw in this process only
      ankigen build --no-cache       # everything afresh; OUT/.cache untouched

    The whole content format: ankigen guide.
    """
    with _usage_errors(), interruptible():
        options = dataclasses.replace(
            resolve(
                paths,
                out_dir,
                figures_dir,
                math,
                figure_format,
                strict,
                jobs=jobs,
                no_cache=no_cache,
            ),
            against=against,
            skip_broken=skip_broken,
        )
        if skip_broken and options.strict:
            given = "--strict" if strict else "[tool.ankigen] strict (pass --no-strict)"
            raise click.UsageError(visible(f"--skip-broken cannot be combined with {given}"))
        with _progress("Rendering") as progress:
            result = run(options, progress)
    if output_format == "json":
        echo_json(_json_report(result))
        sys.exit(1 if result.failed else 0)
    _report(result, output_format)
    if result.failed and not result.written:
        echo(f"Build failed: {_error_count(result)}; no deck was written.", err=True)
        sys.exit(1)
    s = result.summary
    for deck in result.written:
        echo(
            f"wrote {shown_path(deck.path)} ({_plural(deck.notes, 'note')}, "
            f"{_plural(deck.cards, 'card')}, {deck.media} media)"
        )
    if s.up_to_date:
        echo(f"{_plural(s.up_to_date, 'deck')} already up to date (nothing changed)")
    for diff in result.diffs:
        echo(diff_summary(diff))
    echo(
        f"Built {_plural(s.decks, 'deck')}: {_plural(s.notes, 'note')}, "
        f"{_plural(s.cards, 'card')}, {s.media} media; {_plural(s.checks, 'check')} "
        f"passed; images: {s.images_drawn} rendered, {s.images_cached} from cache."
    )
    if result.failed:
        left_out = len(result.left_out)
        others = sum(d.is_error for d in result.diagnostics) - left_out
        tail = (
            f"; {_plural(others, 'other error')} kept its deck from being written"
            if others
            else "; every other item was written"
        )
        items = result.items_left_out
        were = "was" if items == 1 else "were"
        echo(
            f"{_plural(items, 'item')} with {_plural(left_out, 'error')} {were} left out{tail}.",
            err=True,
        )
        sys.exit(1)


@main.command()
@paths_argument
@build_flags
@format_option
@jobs_option
def check(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool | None,
    output_format: str,
    jobs: int | None,
    no_cache: bool,
) -> None:
    """Parse, validate and run every check in PATHS, without writing a deck.

    Formulas and figures are still drawn (into OUT/.cache, unless
    --no-cache), so the next build is faster. Which numbers and formulas on a card must be quoted by
    a check is the deck's claim level: front matter 'claims: answers'
    (default), 'all' (every number and formula on both sides of the card)
    or 'off'. The last line counts checks passed, failed and quotes of the
    card that it no longer shows.

    \b
    Example:
      ankigen check                  # while you write
      ankigen check --strict content/statistics.md
      ankigen check --no-cache       # draw every formula again; OUT/.cache untouched

    The whole content format: ankigen guide.
    """
    with _usage_errors(), interruptible():
        options = resolve(
            paths,
            out_dir,
            figures_dir,
            math,
            figure_format,
            strict,
            write=False,
            jobs=jobs,
            no_cache=no_cache,
        )
        result = run(options)
    if output_format == "json":
        echo_json(_json_report(result))
    else:
        _report(result, output_format)
        echo(_check_summary(result))
    sys.exit(1 if result.failed else 0)


@main.command()
@click.argument("old", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("new", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="A summary for release notes, or every note by outcome as JSON.",
)
@click.option("--strict", is_flag=True, help="Exit 1 when some edit would not reach learners.")
def diff(old: Path, new: Path, output_format: str, strict: bool) -> None:
    """What importing NEW.apkg over OLD.apkg does in a learner's collection, by Anki's rules.

    Each note is added, updated, unchanged, removed (it stays in learners'
    collections) or not applied (Anki skips the edit; the report says why), read from the
    two packages alone.

    \b
    Example:
      ankigen diff previous/statistics.apkg build/statistics.apkg
      ankigen diff old.apkg new.apkg --format json --strict

    How a note keeps its identity from one release to the next: ankigen guide 8.
    """
    with _usage_errors():
        changes = diff_files(old, new)
    if output_format == "json":
        echo_json(diff_record(changes), ensure_ascii=False)
    else:
        echo(diff_summary(changes))
    sys.exit(1 if strict and changes.not_applied else 0)


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Turn usage errors into click's exit status 2, and write errors and unreadable
    decks into 1, with a plain message instead of a traceback."""
    try:
        yield
    except UsageError as exc:
        raise click.UsageError(visible(str(exc))) from None
    except UnreadableDeck as exc:  # a deck from elsewhere: a file error, like content's
        echo(f"error: {exc}", err=True)
        sys.exit(1)
    except WriteError as exc:
        echo(f"Build failed: {exc}; the previous deck was left as it was.", err=True)
        sys.exit(1)
    except OSError as exc:
        # Not content: the output or cache folder cannot be written. Say so plainly.
        where = f" {exc.filename}" if exc.filename else ""
        echo(f"Build failed: cannot write{where}: {exc.strerror or exc}", err=True)
        sys.exit(1)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar for long rendering, only when stdout is a terminal."""
    if not _is_terminal():
        yield None
        return
    with ExitStack() as bars:
        # The total is known only at the first update: the bar is entered then,
        # and the stack closes it (and finishes its line) however rendering ends.
        bar: ProgressBar[int] | None = None

        def update(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = bars.enter_context(click.progressbar(length=total, label=label))
            bar.update(done - bar.pos)

        yield update


def _is_terminal() -> bool:
    """Progress bars are for people watching, not for logs and pipes."""
    return sys.stdout.isatty()


def _report(result: BuildResult, output_format: str = "text") -> None:
    for diagnostic in result.diagnostics:
        if output_format == "github":
            # Workflow commands are read from stdout by the GitHub runner.
            echo(diagnostic.format_github())
        else:
            echo(diagnostic.format(), err=True)
    unverified = result.summary.unverified_claims
    if unverified and output_format == "text":
        echo(_HOW_TO_PROVE.format(claims=_plural(unverified, "unverified claim")), err=True)


#: Said once after the messages when some claim is unverified: what a check is, in brief.
_HOW_TO_PROVE = (
    "{claims}: each number or formula on a card is proved by a ```check block right after "
    "its item: 'cite `1989`' for a number taken from a source, 'assert `9.81` * 2 == "
    "`19.62`' for one worked out, 'cite $E = mc^2$' for a formula; 'claims: off' in a "
    "deck's front matter turns this off. More: ankigen guide 12.12"
)


def _error_count(result: BuildResult) -> str:
    return _plural(sum(d.is_error for d in result.diagnostics), "error")


def _check_summary(result: BuildResult) -> str:
    s = result.summary
    errors = sum(d.is_error for d in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    # "all passed" only when nothing failed: errors elsewhere are no passed checks,
    # and with no check at all there is nothing to call passed.
    if s.checks == 0 and s.quotes_missing == 0:
        verdict = ""
    elif errors == 0 and s.failed_checks == 0 and s.quotes_missing == 0:
        verdict = ", all passed"
    else:
        verdict = f", {s.checks - s.failed_checks} passed, {s.failed_checks} failed"
        if s.quotes_missing:
            verdict += f", {_plural(s.quotes_missing, 'quote')} not found"
    tail = f"; {_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    return (
        f"Checked {_plural(s.decks, 'deck')}: {_plural(s.items, 'item')}, "
        f"{_plural(s.checks, 'check')}{verdict}{tail}."
    )


def _json_report(result: BuildResult) -> dict[str, object]:
    s = result.summary
    return {
        "diagnostics": [d.to_record() for d in result.diagnostics],
        "summary": {
            "decks": s.decks,
            "items": s.items,
            "checks": s.checks,
            "failed_checks": s.failed_checks,
            "quotes_missing": s.quotes_missing,
            "ok": not result.failed,
        },
        "written": [str(deck.path) for deck in result.written],
        "against": [diff_record(diff) for diff in result.diffs],
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _add_author_commands() -> None:
    """``init``, ``preview`` and ``watch`` live in ``ankigen.cli.author``."""
    from ankigen.cli import author as cli_author

    for command in cli_author.COMMANDS:
        main.add_command(command)


_add_author_commands()


def _add_import_command() -> None:
    """``import`` lives in ``ankigen.cli.import_``."""
    from ankigen.cli.import_ import import_command

    main.add_command(import_command)


_add_import_command()
