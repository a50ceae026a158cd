"""The one key recipe of every cache and of the up-to-date stamp.

A cached result may be reused only by the code and libraries that made it.
``code_fingerprint`` hashes every file of the installed ``ankigen`` package
(modules, CSS, templates, JavaScript: anything but byte-compiled files), the
versions of Python and zlib, and the version of every distribution that
shapes what a build writes (``SHAPING_DISTRIBUTIONS``). Each cache adds its
own format, the settings it depends on and its inputs with ``build_key``.

Adding a library that shapes output is one line: its distribution name in
``SHAPING_DISTRIBUTIONS`` (and in ``DRAWING_DISTRIBUTIONS`` when it draws
formulas, which puts its version into every formula image's name).
"""

from __future__ import annotations

import hashlib
import sys
import zlib
from functools import cache, lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

__all__ = [
    "DRAWING_DISTRIBUTIONS",
    "SHAPING_DISTRIBUTIONS",
    "build_key",
    "code_fingerprint",
    "distribution_versions",
    "runtime_versions",
]

#: Distributions whose version changes the bytes of a formula image: MathJax's
#: files and the V8 that runs them (``render._mathjax_engine``).
DRAWING_DISTRIBUTIONS = ("django-static-mathjax", "mini-racer")
#: Every distribution whose version may change what a build writes or reports.
SHAPING_DISTRIBUTIONS = (
    "markdown-it-py",
    "mdit-py-plugins",
    "genanki",
    "sympy",
    "matplotlib",  # figures
    "nh3",  # inline HTML (format section 16)
    "pint",  # units of quoted numbers (format section 18)
    *DRAWING_DISTRIBUTIONS,
)
#: The installed package this module belongs to.
PACKAGE = Path(__file__).resolve().parent.parent


def distribution_versions(names: tuple[str, ...]) -> str:
    """``name=version`` of each distribution (``absent`` when not installed), one string."""
    return " ".join(f"{name}={_version(name)}" for name in names)


def runtime_versions() -> str:
    """The versions of Python, zlib and every distribution that shapes output, one string."""
    return (
        f"python={sys.implementation.name} {sys.version}\x1f"
        f"zlib={zlib.ZLIB_RUNTIME_VERSION}\x1f"
        f"{distribution_versions(SHAPING_DISTRIBUTIONS)}\x1f"
    )


def code_fingerprint(package: Path | None = None) -> str:
    """A hash of every file of ``package`` and of the runtime and library versions.

    ``package`` is the installed ``ankigen`` by default (hashed once per
    process); a test points it at a copy to show that a change of any file
    (``card.css``, a template) changes it.
    """
    if package is None:
        return _installed_fingerprint()
    digest = hashlib.sha256(runtime_versions().encode("utf-8"))
    for source in _package_files(package):
        digest.update(source.relative_to(package).as_posix().encode("utf-8") + b"\x1f")
        digest.update(len(data := source.read_bytes()).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _installed_fingerprint() -> str:
    return code_fingerprint(PACKAGE)


def build_key(*parts: str | bytes, package: Path | None = None) -> Any:
    """A SHA-256 object of the code fingerprint and ``parts``; a cache adds its inputs to it.

    Each part is length-prefixed, so no two lists of parts hash alike.
    """
    digest = hashlib.sha256(code_fingerprint(package).encode("ascii"))
    return key_with(digest, *parts)


def key_with(digest: Any, *parts: str | bytes) -> Any:
    """``digest`` (a ``build_key``, or a copy of one) with ``parts`` added, as ``build_key``
    adds them: a cache whose keys share their first parts hashes those once."""
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest


def _package_files(package: Path) -> list[Path]:
    """Every file of the package but byte-compiled ones, in a stable order."""
    return sorted(
        path
        for path in package.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.relative_to(package).parts
        and path.suffix not in {".pyc", ".pyo"}
    )


@cache
def _version(name: str) -> str:
    """A distribution's version, looked up once per process (each lookup scans sys.path)."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"
