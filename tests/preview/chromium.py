"""Open a page in real headless Chromium: its DOM after scripts ran, its console, a screenshot."""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.is_file(),
    reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
)

_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--enable-logging=stderr",
    "--v=0",
    # Virtual time runs the page's timers and MathJax to completion, then stops.
    "--virtual-time-budget=20000",
)


@dataclass(frozen=True)
class Opened:
    """The page's DOM once its scripts ran, and every console message it logged."""

    dom: str
    console: tuple[str, ...]

    def attribute(self, element: str, name: str) -> str | None:
        """An attribute of the first ``<element ...>`` tag in the DOM."""
        tag = re.search(rf"<{element}\b[^>]*>", self.dom)
        found = tag and re.search(rf'\b{name}="([^"]*)"', tag.group(0))
        return found.group(1) if found else None


def _run(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="ankigen-chromium-") as profile:
        return subprocess.run(
            [str(CHROMIUM), *_FLAGS, f"--user-data-dir={profile}", *extra, url],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )


def open_page(page: Path, query: str = "") -> Opened:
    """Load ``page`` and dump its DOM; console lines are those Chromium logs as CONSOLE."""
    done = _run(page.resolve().as_uri() + query, "--dump-dom")
    console = tuple(line for line in done.stderr.splitlines() if ":CONSOLE" in line)
    return Opened(done.stdout, console)


def screenshot(page: Path, target: Path, query: str = "", size: str = "1200,1600") -> Path:
    """A PNG of the page's first screen at ``size`` (width,height)."""
    _run(page.resolve().as_uri() + query, f"--screenshot={target}", f"--window-size={size}")
    return target
