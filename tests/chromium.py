"""Headless Chromium for tests that look at a page as a learner's screen shows it.

A page measures itself with a script that writes JSON into the body's
``data-probe`` attribute; ``measure`` returns that JSON from the dumped DOM.
``screenshot`` saves a PNG of the same page (kept for people to look at).
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SKIP_REASON = "headless Chromium (/usr/bin/chromium) is not installed"

#: The classes each Anki client puts on the card (its ``<body class="card ...">``)
#: in night mode: the desktop app both (qt/aqt/theme.py), AnkiDroid
#: ``night_mode``, AnkiMobile ``nightMode`` (docs.ankiweb.net/ankimobile/night-mode).
NIGHT_MODE_CLASSES = {
    "desktop": "nightMode night_mode",
    "ankidroid": "night_mode",
    "ankimobile": "nightMode",
}

#: A probe page ends with ``<script>`` that calls ``report(value)``.
PROBE_HEAD = """<script>
function report(value) {
  document.body.setAttribute('data-probe', JSON.stringify(value));
}
</script>"""


def _run(page: Path, width: int, *extra: str) -> str:
    assert CHROMIUM is not None, SKIP_REASON
    profile = tempfile.mkdtemp(prefix="ag_chromium_")
    try:
        return subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--user-data-dir={profile}",
                f"--window-size={width},1600",
                "--virtual-time-budget=10000",
                *extra,
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, "HOME": profile},
        ).stdout
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def measure(page: Path, width: int = 800, *extra: str) -> Any:
    """Load ``page`` in a window ``width`` px wide; the JSON its probe reported."""
    dom = _run(page, width, *extra, "--dump-dom")
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, f"the page reported nothing: {dom[-400:]}"
    return json.loads(html.unescape(found.group(1)))


def screenshot(page: Path, width: int, out: Path) -> Path:
    """Save a PNG of ``page`` in a window ``width`` px wide."""
    _run(page, width, f"--screenshot={out}")
    return out
