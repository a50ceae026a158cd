"""``ankigen watch`` in a real subprocess: real file changes, bounded waits, Ctrl-C."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

from click.testing import CliRunner

from ankigen.cli.app import main

WAIT = 60  # seconds: an upper bound for a slow machine, not a speed claim


class Watcher:
    """``ankigen watch`` running in ``project``; its output (stdout and stderr) as lines."""

    def __init__(self, project: Path) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (*sys.path, env.get("PYTHONPATH")) if p)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ankigen", "watch"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str) -> list[str]:
        """Lines up to and including the next one containing ``text``."""
        got: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"no line with {text!r}; saw {self.seen}") from None
            self.seen.append(line)
            got.append(line)
            if text in line:
                return got

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=WAIT)


def test_watch_rebuilds_on_real_changes_survives_errors_and_stops_on_ctrl_c(
    tmp_path: Path,
) -> None:
    assert CliRunner().invoke(main, ["init", str(tmp_path / "deck")]).exit_code == 0
    project = tmp_path / "deck"
    content = project / "content" / "deck.md"
    page = project / "build" / "preview" / "deck.html"
    version = project / "build" / "preview" / "deck.version.js"
    watcher = Watcher(project)
    try:
        first = watcher.wait_for("waiting for changes")
        assert "wrote build/deck.apkg (9 notes, 10 cards)" in first
        assert "preview build/preview/deck.html (10 cards)" in first
        old_version = version.read_text("utf-8")

        with content.open("a", encoding="utf-8") as handle:
            handle.write("\nA new question? ::: A new answer. <!-- id: new-item -->\n")
        watcher.wait_for("changed: content/deck.md")
        watcher.wait_for("preview build/preview/deck.html (11 cards)")
        assert "A new question?" in page.read_text("utf-8")
        assert version.read_text("utf-8") != old_version

        good = content.read_text("utf-8")
        content.write_text(good + "\nBroken :::\n", "utf-8")
        failed = watcher.wait_for("rebuild failed")
        assert any("deck.md:" in line and "empty answer" in line for line in failed)
        assert watcher.process.poll() is None, "watch must keep running on errors"
        assert 'data-cards="11"' in page.read_text("utf-8"), "the last good preview stays"

        content.write_text(good, "utf-8")  # back to the deck already built
        watcher.wait_for("decks already up to date")

        figure = project / "figures" / "area.py"
        figure.write_text(figure.read_text("utf-8").replace("linewidth=2", "linewidth=3"), "utf-8")
        watcher.wait_for("changed: figures/area.py")
        watcher.wait_for("wrote build/deck.apkg")

        image = project / "content" / "img" / "square.png"
        image.write_bytes(_red_square())
        watcher.wait_for("changed: content/img/square.png")
        watcher.wait_for("wrote build/deck.apkg")
    finally:
        status = watcher.stop()
    output = "\n".join(watcher.seen) + (
        watcher.process.stdout.read() if watcher.process.stdout else ""
    )
    assert status in (0, 130)
    assert "Traceback" not in output


def _red_square() -> bytes:
    """A different valid PNG: the sample square recoloured."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (24, 24), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()
