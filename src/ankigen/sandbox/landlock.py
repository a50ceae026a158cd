"""Landlock, the Linux security module, through its three system calls (``ctypes``).

A process restricts itself, and every process it starts, to the files it
may read and write; Landlock cannot be undone once in force. ABI 4 also
refuses TCP, ABI 6 signals and abstract sockets outside the process's own
domain. The only Python package for it is an alpha release without type
hints, so the calls are made here (the same on every architecture).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["abi", "libc", "restrict"]

_PR_SET_NO_NEW_PRIVS = 38
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_READ_FILE, _READ_DIR = 1 << 2, 1 << 3
#: Every file-system right of each ABI (v2 adds REFER, v3 TRUNCATE, v5 IOCTL_DEV).
_FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_FILE_RIGHTS = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 14) | (1 << 15)
_NET_BIND_TCP, _NET_CONNECT_TCP = 1, 2
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1, 2


def libc() -> ctypes.CDLL | None:
    """The C library, on Linux (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None


def abi() -> int:
    """The Landlock ABI version this kernel offers (0: none)."""
    c = libc()
    if c is None:
        return 0
    version = c.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    return int(version) if version > 0 else 0


def restrict(readable: Iterable[Path], writable: Path) -> bool:
    """Read only beneath ``readable``, write only beneath ``writable``; no TCP, no
    signal outside (where the ABI has them). False when Landlock is not available."""
    c, version = libc(), abi()
    if c is None or version < 1:
        return False
    fs_rights = _FS_RIGHTS[max(v for v in _FS_RIGHTS if v <= version)]
    attr = (ctypes.c_uint64 * 3)(fs_rights, _NET_BIND_TCP | _NET_CONNECT_TCP, 0)
    if version >= 6:
        attr[2] = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL
    size = 8 * (1 if version < 4 else 2 if version < 6 else 3)
    ruleset = c.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0)
    if ruleset < 0:
        return False
    try:
        for path in readable:
            _allow(c, ruleset, path, _READ_FILE | _READ_DIR)
        _allow(c, ruleset, writable, fs_rights)
        if c.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return bool(c.syscall(_RESTRICT_SELF, ruleset, 0) == 0)
    finally:
        os.close(ruleset)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _allow(c: ctypes.CDLL, ruleset: int, path: Path, rights: int) -> None:
    """Grant ``rights`` beneath ``path`` (a file gets the file rights among them only)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:  # absent on this system: nothing to grant
        return
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        c.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(fd)
