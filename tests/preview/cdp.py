"""Drive real headless Chromium over the DevTools protocol: open a page, type, read the DOM.

Chromium talks the protocol over a pair of pipes (``--remote-debugging-pipe``:
it reads commands on its fd 3 and writes answers on its fd 4, each JSON
message ended by a NUL byte), so no port, no websocket library and no
network are needed. Typing goes through ``Input.insertText`` into the
focused element, as a keyboard would: the page sees its ``input`` events.
"""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.preview.chromium import CHROMIUM

#: Debian's /usr/bin/chromium is a launcher script that loses the pipes: the binary itself.
BINARY = Path("/usr/lib/chromium/chromium")
#: The preview page sets this once its scripts ran and MathJax typeset every formula.
READY = "document.documentElement.dataset.ready === '1'"


class Browser:
    """One headless Chromium with one page, closed at the end of a ``with`` block."""

    def __init__(self) -> None:
        self._profile = tempfile.mkdtemp(prefix="ankigen-cdp-")
        reading, self._commands = os.pipe()
        self._answers, writing = os.pipe()
        # Above 4, so that the redirections below cannot overwrite one with the other.
        to_chromium = fcntl.fcntl(reading, fcntl.F_DUPFD, 10)
        from_chromium = fcntl.fcntl(writing, fcntl.F_DUPFD, 10)
        os.close(reading)
        os.close(writing)
        flags = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={self._profile}",
            "--remote-debugging-pipe",
            "about:blank",
        ]
        binary = BINARY if BINARY.is_file() else CHROMIUM
        command = " ".join(shlex.quote(part) for part in (str(binary), *flags))
        redirect = f"3<&{to_chromium} 4>&{from_chromium} {to_chromium}<&- {from_chromium}>&-"
        self._process = subprocess.Popen(
            ["bash", "-c", f"exec {command} {redirect}"],  # dash takes no fd above 9
            pass_fds=(to_chromium, from_chromium),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chromium)
        os.close(from_chromium)
        self._buffer = b""
        self._next = 0
        target = self._send("Target.createTarget", {"url": "about:blank"})["targetId"]
        attached = self._send("Target.attachToTarget", {"targetId": target, "flatten": True})
        self._session = attached["sessionId"]

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            self._process.terminate()
            self._process.wait(timeout=20)
        finally:
            os.close(self._commands)
            os.close(self._answers)
            shutil.rmtree(self._profile, ignore_errors=True)

    def open(self, page: Path, query: str = "", ready: str = READY) -> None:
        """Load ``page`` and wait until the expression ``ready`` is true (20 s at most)."""
        self._send("Page.navigate", {"url": page.resolve().as_uri() + query}, session=True)
        self.wait_for(ready)

    def wait_for(self, condition: str, timeout: float = 20.0) -> None:
        """Wait until the JavaScript ``condition`` is true."""
        deadline = time.monotonic() + timeout
        # (false while the page is still loading, and its document is not there yet)
        test = (
            f"(() => {{ try {{ return Boolean({condition}); }} catch (e) {{ return false; }} }})()"
        )
        while not self.evaluate(test):
            if time.monotonic() > deadline:
                raise TimeoutError(f"never true: {condition}")
            time.sleep(0.1)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON values only)."""
        answer = self._send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(answer["exceptionDetails"])
        return answer["result"].get("value")

    def type(self, selector: str, text: str) -> None:
        """Focus the element ``selector`` and type ``text`` into it."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        for character in text:  # one keystroke at a time, as a person types
            self._send("Input.insertText", {"text": character}, session=True)

    def _send(self, method: str, params: dict[str, Any], *, session: bool = False) -> Any:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, Any] = json.loads(message)
        return parsed
