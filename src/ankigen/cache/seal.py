"""Cache records sealed with a secret of their build folder, so content cannot forge one.

Everything ankigen keeps in ``OUT/.cache`` is reused without being judged
again, so each row of the store (``cache.store``) carries an HMAC-SHA-256
under a key that only this build folder knows: 32 random bytes in ``OUT/.cache/secret``, created on
first use with mode 0600 and never committed (``OUT`` is ignored). A row
whose seal does not match (written by anyone without the key, copied from
another folder, restored from another branch's CI cache without its
secret, damaged) is a miss: its work is done again. A secret that is not a
private regular file of this user (a symlink, readable by others, of the
wrong size) is replaced, so every row sealed with it misses. On a
file system that keeps no modes (a Windows drive in WSL shows every file as
readable by all), a regular file of this user is as private as it gets.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
import tempfile
from pathlib import Path

__all__ = ["MAC_SIZE", "SECRET_NAME", "Sealer"]

SECRET_NAME = "secret"
MAC_SIZE = 32
_KEY_SIZE = 32


class Sealer:
    """HMAC-SHA-256 seals under one build folder's secret."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    @classmethod
    def for_folder(cls, folder: Path) -> Sealer:
        """The sealer of a cache folder, its secret created when there is none yet.

        Where no secret can be kept (a read-only folder), a random key of this
        process only: nothing it seals is reused by another build.
        """
        try:
            return cls(_secret(folder))
        except OSError:
            return cls(secrets.token_bytes(_KEY_SIZE))

    def mac(self, *fields: bytes) -> bytes:
        """The seal of a record made of ``fields`` (each length-prefixed)."""
        # One call into OpenSSL: a warm build checks the seal of every row it reads.
        framed = b"".join([len(field).to_bytes(8, "big") + field for field in fields])
        return hmac.digest(self._key, framed, hashlib.sha256)

    def matches(self, seal: bytes, *fields: bytes) -> bool:
        """True when ``seal`` is this folder's seal of ``fields``."""
        return hmac.compare_digest(seal, self.mac(*fields))


def _secret(folder: Path) -> bytes:
    """The folder's secret; made (or remade, when it cannot be trusted) if needed.

    A new secret is linked into place, which fails when another build made one
    meanwhile: two builds starting at once agree on one secret, with no lock file.
    """
    path = folder / SECRET_NAME
    key = _read_private(path)
    if key is not None:
        return key
    folder.mkdir(parents=True, exist_ok=True)
    # A file system that keeps no modes (a Windows drive mounted in WSL) shows every
    # file as readable by all: there, a file of this user is as private as it gets.
    modes = _keeps_modes(folder)
    key = _read_private(path, modes=modes)
    if key is not None:
        return key
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # not a private file of ours: every seal made with it misses
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".secret-")  # mode 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(_KEY_SIZE))
        try:
            os.link(temp, path)
        except FileExistsError:
            pass  # another build's secret won
        except OSError:
            os.replace(temp, path)  # a file system without hard links
    finally:
        Path(temp).unlink(missing_ok=True)
    key = _read_private(path, modes=modes)
    if key is None:
        raise OSError(f"cannot keep a private secret in {folder}")
    return key


def _keeps_modes(folder: Path) -> bool:
    """Whether files made with mode 0600 in ``folder`` stay unreadable by others."""
    fd, probe = tempfile.mkstemp(dir=folder, prefix=".secret-probe-")
    try:
        return os.name != "posix" or not os.fstat(fd).st_mode & 0o077
    finally:
        os.close(fd)
        Path(probe).unlink(missing_ok=True)


def _read_private(path: Path, *, modes: bool = True) -> bytes | None:
    """The key in ``path`` when it is a regular file of this user that only they can read
    (``modes``: as its mode says; else the file system keeps no modes)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size != _KEY_SIZE:
            return None
        private = not (modes and info.st_mode & 0o077)
        if os.name == "posix" and (info.st_uid != os.getuid() or not private):
            return None
        key = handle.read(_KEY_SIZE + 1)
    return key if len(key) == _KEY_SIZE else None
