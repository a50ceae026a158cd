"""The command line: the only place that prints and picks exit codes.

Exit status: 0 ok, 1 content errors, 2 usage errors.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ankigen import __version__
from ankigen.apkg import UnreadableDeck
from ankigen.commands.build import BuildOptions, BuildResult, WriteError, run
from ankigen.commands.diff import diff_files, diff_record, diff_summary
from ankigen.config import load_settings
from ankigen.errors import UsageError
from ankigen.model import MathMode

_PATHS = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
_STRICT = click.option(
    "--strict",
    is_flag=True,
    help="Treat every warning (unverified claims, near-miss syntax, ...) as an error.",
)
_FORMAT = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="Diagnostics as FILE:LINE:COL: text, as JSON records, or as GitHub "
    "workflow commands (annotations on a pull request).",
)
_FIGURES = click.option(
    "--figures",
    "figures_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder of figure scripts <id>.py (default: figures/).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ankigen")
def main() -> None:
    """Build Anki decks from markdown question banks.

    Each content file (content/*.md) becomes one deck, build/<stem>.apkg.
    Folders default to [tool.ankigen] in ./pyproject.toml, else content/,
    figures/ and build/.
    """


@main.command()
@_PATHS
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder for the .apkg files (default: build/).",
)
@_FIGURES
@click.option(
    "--math",
    "math",
    type=click.Choice(["image", "mathjax"]),
    help="Render formulas as images, or leave them to Anki's MathJax "
    "(overrides each file's front matter; default: image).",
)
@click.option(
    "--figure-format",
    type=click.Choice(["svg", "png"]),
    default="svg",
    show_default=True,
    help="Image format for figures.",
)
@click.option(
    "--against",
    type=click.Path(path_type=Path, exists=True),
    help="The release learners have (OLD.apkg, or a folder of them): print what "
    "importing the new deck over it will do; refuse a note type change under one id.",
)
@_STRICT
@_FORMAT
def build(
    paths: tuple[Path, ...],
    out_dir: Path | None,
    figures_dir: Path | None,
    math: str | None,
    figure_format: str,
    strict: bool,
    output_format: str,
    against: Path | None,
) -> None:
    """Build OUT/<stem>.apkg for each content file in PATHS (default: content/).

    Every check runs first; if any content error is found, no deck is
    written and the previous decks stay as they were.
    """
    with _usage_errors():
        settings = load_settings(Path.cwd())
        options = BuildOptions(
            paths=paths or (settings.content,),
            out_dir=out_dir or settings.out,
            figures_dir=figures_dir or settings.figures,
            math=MathMode(math) if math else None,
            figure_format=figure_format,
            strict=strict,
            against=against,
        )
        with _progress("Rendering") as progress:
            result = run(options, progress)
    if output_format == "json":
        click.echo(json.dumps(_json_report(result), indent=2))
        sys.exit(1 if result.failed else 0)
    _report(result, output_format)
    if result.failed:
        click.echo(f"Build failed: {_error_count(result)}; no deck was written.", err=True)
        sys.exit(1)
    s = result.summary
    for deck in result.written:
        click.echo(
            f"wrote {deck.path} ({_plural(deck.notes, 'note')}, "
            f"{_plural(deck.cards, 'card')}, {deck.media} media)"
        )
    if s.up_to_date:
        click.echo(f"{_plural(s.up_to_date, 'deck')} already up to date (nothing changed)")
    for diff in result.diffs:
        click.echo(diff_summary(diff))
    click.echo(
        f"Built {_plural(s.decks, 'deck')}: {_plural(s.notes, 'note')}, "
        f"{_plural(s.cards, 'card')}, {s.media} media; {_plural(s.checks, 'check')} "
        f"passed; images: {s.images_drawn} rendered, {s.images_cached} from cache."
    )


@main.command()
@_PATHS
@_STRICT
@_FORMAT
@_FIGURES
def check(
    paths: tuple[Path, ...], strict: bool, output_format: str, figures_dir: Path | None
) -> None:
    """Parse, validate and run every check in PATHS, without writing a deck."""
    with _usage_errors():
        settings = load_settings(Path.cwd())
        options = BuildOptions(
            paths=paths or (settings.content,),
            out_dir=settings.out,
            figures_dir=figures_dir or settings.figures,
            write=False,
            strict=strict,
        )
        result = run(options)
    if output_format == "json":
        click.echo(json.dumps(_json_report(result), indent=2))
    else:
        _report(result, output_format)
        click.echo(_check_summary(result))
    sys.exit(1 if result.failed else 0)


@main.command()
@click.argument("old", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("new", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
@click.option("--strict", is_flag=True, help="Exit 1 when some edit would not reach learners.")
def diff(old: Path, new: Path, output_format: str, strict: bool) -> None:
    """What importing NEW.apkg over OLD.apkg does in a learner's collection, by Anki's rules."""
    with _usage_errors():
        changes = diff_files(old, new)
    if output_format == "json":
        click.echo(json.dumps(diff_record(changes), indent=2, ensure_ascii=False))
    else:
        click.echo(diff_summary(changes))
    sys.exit(1 if strict and changes.not_applied else 0)


@contextmanager
def _usage_errors() -> Iterator[None]:
    """Turn usage errors into click's exit status 2, and write errors into 1, with a plain
    message instead of a traceback."""
    try:
        yield
    except (UsageError, UnreadableDeck) as exc:
        raise click.UsageError(str(exc)) from None
    except WriteError as exc:
        click.echo(f"Build failed: {exc}; the previous deck was left as it was.", err=True)
        sys.exit(1)
    except OSError as exc:
        # Not content: the output or cache folder cannot be written. Say so plainly.
        where = f" {exc.filename}" if exc.filename else ""
        click.echo(f"Build failed: cannot write{where}: {exc.strerror or exc}", err=True)
        sys.exit(1)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar for long rendering, only when stdout is a terminal."""
    if not _is_terminal():
        yield None
        return
    bar = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = click.progressbar(length=total, label=label)
            bar.__enter__()
        bar.update(done - bar.pos)

    try:
        yield update
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def _is_terminal() -> bool:
    """Progress bars are for people watching, not for logs and pipes."""
    return sys.stdout.isatty()


def _report(result: BuildResult, output_format: str = "text") -> None:
    for diagnostic in result.diagnostics:
        if output_format == "github":
            # Workflow commands are read from stdout by the GitHub runner.
            click.echo(diagnostic.format_github())
        else:
            click.echo(diagnostic.format(), err=True)


def _error_count(result: BuildResult) -> str:
    return _plural(sum(d.is_error for d in result.diagnostics), "error")


def _check_summary(result: BuildResult) -> str:
    s = result.summary
    errors = sum(d.is_error for d in result.diagnostics)
    warnings = len(result.diagnostics) - errors
    verdict = "all passed" if s.failed_checks == 0 else f"{s.failed_checks} failed"
    tail = f"; {_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    return (
        f"Checked {_plural(s.decks, 'deck')}: {_plural(s.items, 'item')}, "
        f"{_plural(s.checks, 'check')}, {verdict}{tail}."
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
            "ok": not result.failed,
        },
        "written": [str(deck.path) for deck in result.written],
        "against": [diff_record(diff) for diff in result.diffs],
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
