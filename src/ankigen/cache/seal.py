"""Cache rows sealed with a key of this user, so no content and no copied cache can forge one.

Everything ankigen keeps in ``OUT/.cache`` is reused without being judged
again, so each row of the store (``cache.store``) carries an HMAC-SHA-256
under a key only this user's builds know: 32 random bytes in
``$XDG_STATE_HOME/ankigen/cache-key`` (``~/.local/state/ankigen/cache-key``
when the variable is not set), made on first use with mode 0600.

The key is kept outside every build folder on purpose: a cache folder that
arrives from elsewhere (copied, restored from a CI cache, unpacked from an
archive, committed to a repository) brings no key with it, so none of its
rows is trusted and its work is done again. A key that is not a private
regular file of this user (a symlink, readable by others, of the wrong size)
is replaced, so every row sealed with it misses. Where no key can be kept
(no writable home), a key of this process only: nothing it seals is reused
by a later build.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
import tempfile
from functools import cache
from pathlib import Path

__all__ = ["KEY_NAME", "MAC_SIZE", "Sealer", "key_path"]

KEY_NAME = "cache-key"
MAC_SIZE = 32
_KEY_SIZE = 32
#: Bytes of fields up to which a seal frames them in one buffer, one call into OpenSSL
#: (fastest for the many small rows); bigger ones are fed in place, not copied.
_FRAMED_AT_MOST = 1 << 16


class Sealer:
    """HMAC-SHA-256 seals under one key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    @classmethod
    def for_user(cls) -> Sealer:
        """The sealer of this user's builds (its key made when there is none yet)."""
        return cls(_user_key(key_path()))

    def mac(self, *fields: bytes) -> bytes:
        """The seal of a record made of ``fields`` (each length-prefixed)."""
        if sum(map(len, fields)) < _FRAMED_AT_MOST:
            # One call into OpenSSL: a warm build checks the seal of every row it reads.
            return hmac.digest(self._key, _framed(fields), hashlib.sha256)
        return self._streamed_mac(fields)

    def sealing(self, *fields: bytes, size: int) -> hmac.HMAC:
        """The seal of ``fields`` and one more field of ``size`` bytes, being made: the
        caller feeds that field's bytes (``update``), piece by piece, then takes its
        ``digest()``, equal to ``mac`` of the same fields."""
        sealing = hmac.new(self._key, digestmod=hashlib.sha256)
        for field in fields:
            sealing.update(_length(field))
            sealing.update(field)
        sealing.update(size.to_bytes(8, "big"))
        return sealing

    def _streamed_mac(self, fields: tuple[bytes, ...]) -> bytes:
        """``mac`` fed field by field: a big row (a 100,000-item deck's sections are one
        of 66 MB) is not copied twice more into one framed buffer (``_framed``)."""
        *leading, last = fields
        sealing = self.sealing(*leading, size=len(last))
        sealing.update(last)
        return sealing.digest()

    def matches(self, seal: bytes, *fields: bytes) -> bool:
        """True when ``seal`` is this key's seal of ``fields``."""
        return hmac.compare_digest(seal, self.mac(*fields))


def _framed(fields: tuple[bytes, ...]) -> bytes:
    """``fields`` each prefixed with its length, so no two lists of fields frame alike."""
    return b"".join([_length(field) + field for field in fields])


def _length(field: bytes) -> bytes:
    """The prefix that frames ``field``: its length."""
    return len(field).to_bytes(8, "big")


def key_path() -> Path:
    """Where this user's cache key is kept (``$XDG_STATE_HOME/ankigen/cache-key``)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "ankigen" / KEY_NAME


@cache
def _user_key(path: Path) -> bytes:
    """The key at ``path``, made (or remade, when it cannot be trusted) if needed; read once
    per process. Where none can be kept, a key of this process only."""
    try:
        return _kept_key(path)
    except OSError:
        return secrets.token_bytes(_KEY_SIZE)


def _kept_key(path: Path) -> bytes:
    """The key at ``path``; a new one is linked into place, so two builds starting at once
    agree on one with no lock file."""
    key = _read_private(path)
    if key is not None:
        return key
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # not a private file of ours: every seal made with it misses
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{KEY_NAME}-")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(_KEY_SIZE))
        with contextlib.suppress(FileExistsError):  # another build's key won
            os.link(temp, path)
    finally:
        Path(temp).unlink(missing_ok=True)
    key = _read_private(path)
    if key is None:
        raise OSError(f"cannot keep a private key in {path}")
    return key


def _read_private(path: Path) -> bytes | None:
    """The key in ``path`` when it is a regular file of this user that only they can read."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size != _KEY_SIZE:
            return None
        if os.name == "posix" and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None
        key = handle.read(_KEY_SIZE + 1)
    return key if len(key) == _KEY_SIZE else None
