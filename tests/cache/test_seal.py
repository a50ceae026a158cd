"""This user's cache key: outside the build folders, private, made once, replaced if untrusted."""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

import pytest

from ankigen.cache import KEY_NAME, Sealer, key_path


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A state folder of this test's own (``$XDG_STATE_HOME``)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def test_the_key_is_private_kept_and_outside_the_build_folder(state_home: Path) -> None:
    first = Sealer.for_user()
    key = state_home / "ankigen" / KEY_NAME
    assert key_path() == key
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    seal_ = first.mac(b"record", b"payload")
    assert Sealer.for_user().matches(seal_, b"record", b"payload")


def test_without_xdg_state_home_it_is_under_the_home_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert key_path() == tmp_path / ".local" / "state" / "ankigen" / KEY_NAME


def test_another_users_key_cannot_open_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "a"))
    seal_ = Sealer.for_user().mac(b"payload")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "b"))
    assert not Sealer.for_user().matches(seal_, b"payload")


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "moved", "resealed"])
def test_a_changed_record_does_not_match(state_home: Path, damage: str) -> None:
    sealer = Sealer.for_user()
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


@pytest.mark.parametrize("size", [0, 100, 65_535, 65_536, 3 << 20])
def test_a_seal_is_the_hmac_of_the_length_prefixed_fields_whatever_their_size(size: int) -> None:
    """Small rows are framed in one buffer, big ones fed field by field: one seal."""
    payload = (bytes(range(256)) * (size // 256 + 1))[:size]
    key, fields = b"k" * 32, (b"kind", b"scope", b"key", payload)
    framed = b"".join(len(field).to_bytes(8, "big") + field for field in fields)
    assert Sealer(key).mac(*fields) == hmac.digest(key, framed, hashlib.sha256)
    assert Sealer(key).matches(hmac.digest(key, framed, hashlib.sha256), *fields)


@pytest.mark.skipif(os.name != "posix", reason="file modes and symlinks")
@pytest.mark.parametrize("kind", ["readable by others", "symlink", "wrong size"])
def test_an_untrusted_key_is_replaced(state_home: Path, kind: str) -> None:
    key = state_home / "ankigen" / KEY_NAME
    key.parent.mkdir(parents=True)
    planted = b"p" * 32
    if kind == "symlink":
        elsewhere = state_home / "elsewhere"
        elsewhere.write_bytes(planted)
        elsewhere.chmod(0o600)
        key.symlink_to(elsewhere)
    else:
        key.write_bytes(planted if kind != "wrong size" else b"short")
        key.chmod(0o644 if kind == "readable by others" else 0o600)
    forged = Sealer(planted).mac(b"poison")
    assert not Sealer.for_user().matches(forged, b"poison")
    assert not key.is_symlink() and stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_bytes() != planted


def test_where_no_key_can_be_kept_nothing_is_reused(state_home: Path) -> None:
    state_home.write_text("a file, not a folder")
    first = Sealer.for_user().mac(b"payload")  # a key of this process only
    assert Sealer.for_user().matches(first, b"payload")  # the same within the process
    assert not Sealer(b"k" * 32).matches(first, b"payload")
