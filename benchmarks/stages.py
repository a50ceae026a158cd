"""Where a cold build's CPU goes, stage by stage, against markdown-it-py's bare parse (issue 26).

Issue 26 asks for a cold 10,000-item mathjax build within 2.0x the CPU of
markdown-it-py parsing the same bank and doing nothing else. This script
answers "how far is each stage from that floor": in one fresh process per
round it parses the generated bank with stock markdown-it-py (commonmark,
like ``bench.py``'s parser row), renders those tokens to HTML, then runs
``ankigen build --no-cache -j 1 --math mathjax`` in the same process with a
CPU timer around each stage function of ``commands/build.py``. ``-j 1`` keeps
all the work in this process, so the CPU counted is all the CPU spent.

    python benchmarks/stages.py              # 10,000 items, 3 rounds
    python benchmarks/stages.py --items 1000 --rounds 5

The stage timers wrap the module attributes ``commands/build.py`` calls
through (a measurement, never the product's code path); the decks built are
the ones a plain ``ankigen build`` writes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import generate_bank

#: The stage functions of ``ankigen.commands.build`` timed, by label, in pipeline order.
STAGES = (
    ("parse", "parse_source"),
    ("start render", "start_rendering"),
    ("check", "check_source"),
    ("package", "write_staged"),
)


def one_round(project: Path) -> dict[str, float]:
    """CPU seconds of the bare parse, its HTML, imports and each stage of one cold build."""
    from markdown_it import MarkdownIt

    text = (project / "content" / "bank.md").read_text(encoding="utf-8")
    parser = MarkdownIt("commonmark")
    started = time.process_time()
    tokens = parser.parse(text)
    parsed = time.process_time()
    parser.renderer.render(tokens, parser.options, {})
    rendered = time.process_time()
    del tokens

    import ankigen.commands.build as pipeline
    from ankigen.build.build_types import BuildOptions
    from ankigen.model import MathMode
    from ankigen.render import Rendering

    imported = time.process_time()
    spent: dict[str, float] = {}
    for label, name in STAGES:
        setattr(pipeline, name, _timed(getattr(pipeline, name), label, spent))
    Rendering.finish = _timed(Rendering.finish, "finish render", spent)  # type: ignore[method-assign]
    options = BuildOptions(
        paths=(project / "content",),
        out_dir=project / "build",
        figures_dir=project / "figures",
        math=MathMode.MATHJAX,
        jobs=1,
        cache=False,
    )
    before = time.process_time()
    result = pipeline.run(options)
    total = time.process_time() - before
    if result.summary.decks != 1:
        raise SystemExit(f"the build wrote {result.summary.decks} decks, not 1")
    return {
        "markdown-it parse": parsed - started,
        "markdown-it render": rendered - parsed,
        "ankigen imports": imported - rendered,
        **spent,
        "the rest of the build": total - sum(spent.values()),
        "ankigen build": total,
    }


def _timed(function: Callable[..., Any], label: str, spent: dict[str, float]) -> Any:
    """``function``, adding the CPU time of each call to ``spent[label]``."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - started

    return timed


def main() -> None:
    """Write the bank, run the rounds in fresh processes, print the table of medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000, help="bank size (default 10,000)")
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes; medians shown")
    parser.add_argument("--round", type=Path, help=argparse.SUPPRESS)  # one round, in a child
    args = parser.parse_args()
    if args.round is not None:
        print(json.dumps(one_round(args.round)))
        return
    with tempfile.TemporaryDirectory(prefix="ankigen-stages-") as folder:
        project = Path(folder)
        (project / "content").mkdir()
        bank = generate_bank(args.items).text
        (project / "content" / "bank.md").write_text(bank, encoding="utf-8")
        rounds = [_child_round(project) for _ in range(args.rounds)]
    print(table(rounds, args.items))


def _child_round(project: Path) -> dict[str, float]:
    """One round in a fresh interpreter (nothing imported or warmed by an earlier one)."""
    command = [sys.executable, __file__, "--round", str(project)]
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=project)
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def table(rounds: list[dict[str, float]], items: int) -> str:
    """A markdown table: each figure's median CPU seconds and its ratio to the bare parse."""
    medians = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    floor = medians["markdown-it parse"]
    lines = [
        f"Cold mathjax build of the {items:,}-item bank, `-j 1 --no-cache`, CPU seconds "
        f"(median of {len(rounds)} fresh processes):",
        "",
        "| work | CPU s | ÷ markdown-it-py's bare parse |",
        "|---|---:|---:|",
    ]
    for key, value in medians.items():
        lines.append(f"| {key} | {value:.2f} | {value / floor:.2f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
