"""The options that build, check, preview and watch share, and how they meet the project.

A command-line option wins over ``[tool.ankigen]``, which wins over the
defaults; folders resolve from the project of the content (see ``ankigen.build.config``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ankigen.build.config import project_input, project_output, settings_for
from ankigen.build.cpus import capped_jobs
from ankigen.commands.build import BuildOptions
from ankigen.model import MathMode

F = TypeVar("F", bound=Callable[..., Any])

paths_argument = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))

out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder for the .apkg files and the image cache (default: build/ of the project).",
)
figures_option = click.option(
    "--figures",
    "figures_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder of figure scripts <id>.py (default: figures/ of the project).",
)
math_option = click.option(
    "--math",
    "math",
    type=click.Choice(["image", "mathjax"]),
    help="Render formulas as images, or leave them to Anki's MathJax "
    "(overrides each file's front matter; default: [tool.ankigen] math, else image).",
)
figure_format_option = click.option(
    "--figure-format",
    type=click.Choice(["svg", "png"]),
    default="svg",
    show_default=True,
    help="Image format for figures.",
)
strict_option = click.option(
    "--strict/--no-strict",
    default=None,
    help="Treat every warning (unverified claims, near-miss syntax, ...) as an error "
    "(default: [tool.ankigen] strict, else off).",
)
jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that draw formula images (1: no worker processes; default: "
    "[tool.ankigen] jobs, else every CPU this process may use; never more than "
    "those CPUs). The decks are the same whatever N is.",
)
no_cache_option = click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the caches under OUT/.cache (parsed sections, passed "
    "checks, rendered notes, formula images, deflated media, up-to-date stamps): "
    "everything is computed afresh. The decks are the same bytes either way.",
)
format_option = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="Diagnostics as FILE:LINE:COL: text, as JSON records, or as GitHub "
    "workflow commands (annotations on a pull request).",
)


def build_flags(function: F) -> F:
    """Every option of ``build`` that decides what a deck becomes (not how it is reported)."""
    for option in (
        no_cache_option,
        strict_option,
        figure_format_option,
        math_option,
        figures_option,
        out_option,
    ):
        function = option(function)
    return function


def resolve(
    paths: tuple[Path, ...],
    out_dir: Path | None = None,
    figures_dir: Path | None = None,
    math: str | None = None,
    figure_format: str = "svg",
    strict: bool | None = None,
    write: bool = True,
    jobs: int | None = None,
    no_cache: bool = False,
) -> BuildOptions:
    """Build options from the command line, filled in from the content's project.

    The project's output, content and figures folders are refused when they
    lead outside the project (``project_output``, ``project_input``); ones
    named on the command line are not.
    """
    settings = settings_for(paths, Path.cwd())
    return BuildOptions(
        paths=paths or (project_input(settings.content, settings.root, "content"),),
        out_dir=out_dir or project_output(settings.out, settings.root),
        figures_dir=figures_dir or project_input(settings.figures, settings.root, "figures"),
        math=MathMode(math) if math else None,
        default_math=settings.math or MathMode.IMAGE,
        default_claims=settings.claims,
        figure_format=figure_format,
        write=write,
        strict=settings.strict if strict is None else strict,
        limits=settings.limits,
        jobs=capped_jobs(jobs or settings.jobs),
        project=settings.root,
        macros_file=settings.macros,
        cache=not no_cache,
    )
