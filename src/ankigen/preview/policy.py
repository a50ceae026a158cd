"""What the preview page may do: run only its own scripts, and load nothing from the network.

The page is one folder opened from disk. Its Content-Security-Policy allows
scripts from that folder (MathJax, the reload poll) and the page's own
inline scripts, each by the hash of its text, and nothing else: no inline
script or handler from a card, no request to any other origin (a card's
style, an image or a font cannot send a beacon), no form, frame or base URL.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Iterable
from importlib import resources

__all__ = ["asset", "content_security_policy", "script_hash"]


@functools.cache
def asset(name: str) -> str:
    """A file of ``templates/preview`` (the page's own CSS and scripts), read once a
    process: ``ankigen watch`` writes the page every round."""
    return resources.files("ankigen").joinpath("templates", "preview", name).read_text("utf-8")


def script_hash(source: str) -> str:
    """The CSP source that allows exactly the inline script ``source``."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy(inline_scripts: Iterable[str]) -> str:
    """The page's policy, allowing these inline scripts (by hash) and the folder's files."""
    hashes = " ".join(sorted({script_hash(source) for source in inline_scripts}))
    return "; ".join(
        (
            "default-src 'none'",
            f"script-src 'self' {hashes}",
            # inline styles (the note type's CSS, formula image sizes) cannot reach
            # the network either: every fetch below is limited to the folder
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self' data:",
            "media-src 'self'",
            "connect-src 'none'",
            "object-src 'none'",
            "frame-src 'none'",
            "worker-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        )
    )
