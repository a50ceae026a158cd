"""A burst of saves makes fewer rounds than saves, and the last round builds the last save."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from click.testing import CliRunner

from ankigen.cli.app import main
from ankigen.cli.options import resolve
from ankigen.commands.watch import Rebuild, watch

WAIT = 120  # seconds: an upper bound for a loaded machine, not a speed claim
SAVES = 5


def test_a_burst_of_saves_is_built_once_for_its_last_state(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    content = tmp_path / "deck" / "content"
    source = content / "deck.md"
    options = resolve((content,))
    rounds: list[Rebuild] = []
    first_done = threading.Event()
    stop = threading.Event()

    def report(round_: Rebuild) -> None:
        rounds.append(round_)
        first_done.set()

    watcher = threading.Thread(
        target=watch, args=(options, options.out_dir / "preview", report, stop), daemon=True
    )
    watcher.start()
    try:
        assert first_done.wait(WAIT), "no first round"
        good = source.read_text("utf-8")
        for number in range(SAVES):  # an editor saving again and again, by rename
            temporary = content / ".deck.md.tmp"
            temporary.write_text(f"{good}\nBurst {number}? ::: Yes. <!-- id: burst -->\n")
            temporary.replace(source)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and not _built(rounds, f"Burst {SAVES - 1}?"):
            time.sleep(0.05)
        time.sleep(0.5)  # a round the burst would still start comes by now
    finally:
        stop.set()
        watcher.join(WAIT)
    after_first = rounds[1:]
    assert _built(rounds, f"Burst {SAVES - 1}?"), [r.problem for r in rounds]
    assert 1 <= len(after_first) < SAVES, len(after_first)
    assert all(r.build is not None and not r.build.failed for r in after_first)


def _built(rounds: list[Rebuild], question: str) -> bool:
    """Whether the last round wrote a deck whose page shows ``question``."""
    if not rounds or rounds[-1].build is None or not rounds[-1].build.written:
        return False
    return any(question in page.path.read_text("utf-8") for page in rounds[-1].pages)
