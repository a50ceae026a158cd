"""A burst of saves makes fewer rounds than saves, and the deck and page end at the last save.

A round reads the file when it starts, so a round may already build the last
save while later events of the burst are still on their way: the round they
make then finds the deck up to date. So the test counts rounds and reads the
page, but does not ask which round wrote it.
"""

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
    page = options.out_dir / "preview" / "deck.html"
    last = f"Burst {SAVES - 1}?"
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
        while time.monotonic() < deadline and last not in page.read_text("utf-8"):
            time.sleep(0.05)
        time.sleep(0.5)  # a round the burst would still start comes by now
    finally:
        stop.set()
        watcher.join(WAIT)
    after_first = rounds[1:]
    assert last in page.read_text("utf-8"), [r.problem for r in rounds]
    assert "Burst 0?" not in page.read_text("utf-8")
    assert 1 <= len(after_first) < SAVES, len(after_first)
    assert any(r.build is not None and r.build.written for r in after_first)
    assert all(r.build is not None and not r.build.failed for r in after_first)
