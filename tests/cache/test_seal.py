"""The build folder's secret: private, made once, replaced when it cannot be trusted."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from ankigen.cache import SECRET_NAME, Sealer, seal


def test_the_secret_is_private_and_kept(tmp_path: Path) -> None:
    first = Sealer.for_folder(tmp_path / ".cache")
    secret = tmp_path / ".cache" / SECRET_NAME
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    seal_ = first.mac(b"record", b"payload")
    assert Sealer.for_folder(tmp_path / ".cache").matches(seal_, b"record", b"payload")


def test_another_folder_cannot_open_it(tmp_path: Path) -> None:
    seal_ = Sealer.for_folder(tmp_path / "a").mac(b"payload")
    assert not Sealer.for_folder(tmp_path / "b").matches(seal_, b"payload")


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "moved", "resealed"])
def test_a_changed_record_does_not_match(tmp_path: Path, damage: str) -> None:
    sealer = Sealer.for_folder(tmp_path)
    fields = [b"kind", b"payload"]
    seal_ = bytearray(sealer.mac(*fields))
    if damage == "flipped byte":
        fields[1] = b"paylaod"
    elif damage == "truncated":
        del seal_[-3:]
    elif damage == "moved":  # the same bytes cut into other fields: each is length-prefixed
        fields = [b"kindpay", b"load"]
    else:  # by someone with a key of their own
        seal_ = bytearray(Sealer(b"k" * 32).mac(*fields))
    assert not sealer.matches(bytes(seal_), *fields)


@pytest.mark.skipif(os.name != "posix", reason="file modes and symlinks")
@pytest.mark.parametrize("kind", ["readable by others", "symlink", "wrong size"])
def test_an_untrusted_secret_is_replaced(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / ".cache"
    folder.mkdir()
    secret = folder / SECRET_NAME
    planted = b"p" * 32
    if kind == "symlink":
        (tmp_path / "elsewhere").write_bytes(planted)
        (tmp_path / "elsewhere").chmod(0o600)
        secret.symlink_to(tmp_path / "elsewhere")
    else:
        secret.write_bytes(planted if kind != "wrong size" else b"short")
        secret.chmod(0o644 if kind == "readable by others" else 0o600)
    forged = Sealer(planted).mac(b"poison")
    sealer = Sealer.for_folder(folder)
    assert not sealer.matches(forged, b"poison")
    assert not secret.is_symlink() and stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert secret.read_bytes() != planted


@pytest.mark.skipif(os.name != "posix", reason="file modes")
def test_where_the_file_system_keeps_no_modes_a_file_of_ours_is_private(tmp_path: Path) -> None:
    """A Windows drive in WSL shows every file as 0777: the secret is kept there too."""
    secret = tmp_path / SECRET_NAME
    secret.write_bytes(b"k" * 32)
    secret.chmod(0o777)
    assert seal._read_private(secret) is None
    assert seal._read_private(secret, modes=False) == b"k" * 32
    assert seal._keeps_modes(tmp_path)  # this one does keep them
