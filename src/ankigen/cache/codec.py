"""One encoder of the model's frozen dataclasses for the store: builtin values, tagged.

A value is written as builtin values only, which ``marshal`` turns into bytes
(loading them builds no object of any class):

* ``None``, ``bool``, ``int``, ``float``, ``str`` and ``bytes`` as they are;
* a tuple as a tuple of its encoded items, a dict as a dict of encoded pairs;
* a dataclass as a list: its type's tag, then each field in ``dataclasses.fields``
  order; an enum as ``[tag, value]``; a ``Path`` as ``["Path", text]``.

The tags are the names of the types a ``Codec`` is made with (the model's, by
default: ``MODEL_TYPES``); decoding builds only those, through their
constructors, so a stored value is the one a build makes. Nothing here names
a field: a field added to a model type is written with the others. A value
stored by older code is never read by newer code anyway (every key holds
``recipe.code_fingerprint``); one of another shape raises ``ValueError`` or
``TypeError`` and is a miss.

Lines: with ``base``, every field named ``line`` is stored counted from it
(and read back counted from the base given then), so a section or an item
that only moved in its file still decodes to its new lines.
"""

from __future__ import annotations

import dataclasses
import enum
import marshal
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ankigen import model
from ankigen.diagnostics import Diagnostic, Severity

__all__ = ["MODEL_TYPES", "Codec"]

#: Every dataclass and enum of ``ankigen.model``, and the diagnostics' types.
MODEL_TYPES: tuple[type, ...] = (
    *(
        value
        for value in vars(model).values()
        if isinstance(value, type)
        and value.__module__ == model.__name__
        and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum))
    ),
    Diagnostic,
    Severity,
)
_PLAIN = frozenset({str, int, float, bool, type(None), bytes})
_PATH_TAG = "Path"


class Codec:
    """Encodes and decodes values of the given dataclass and enum types (and builtins)."""

    def __init__(self, types: Iterable[type] = ()) -> None:
        """``types``: the dataclasses and enums it writes, besides ``MODEL_TYPES``."""
        self._tags: dict[type, str] = {}
        self._types: dict[str, type] = {}
        #: Per dataclass: its field names, and the index of its ``line`` field (-1: none).
        self._fields: dict[type, tuple[tuple[str, ...], int]] = {}
        for cls in (*MODEL_TYPES, *types):
            tag = cls.__qualname__
            if self._types.get(tag, cls) is not cls or tag == _PATH_TAG:
                raise ValueError(f"two types tagged {tag}")
            self._tags[cls], self._types[tag] = tag, cls
            if dataclasses.is_dataclass(cls):
                names = tuple(f.name for f in dataclasses.fields(cls))
                line = names.index("line") if "line" in names else -1
                self._fields[cls] = (names, line)

    def dumps(self, value: object, base: int = 0) -> bytes:
        """``value`` as bytes, its ``line`` fields counted from ``base``."""
        return marshal.dumps(self.encode(value, base))

    def loads(self, data: bytes, base: int = 0) -> Any:
        """The inverse of ``dumps``; bytes of another shape raise ValueError or TypeError."""
        try:
            encoded = marshal.loads(data)
        except EOFError as damaged:
            raise ValueError("a damaged value") from damaged
        return self.decode(encoded, base)

    def encode(self, value: object, base: int = 0) -> Any:
        """``value`` as builtin values (see the module's docstring)."""
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind is tuple:
            return tuple([self.encode(v, base) for v in value]) if value else ()  # type: ignore[attr-defined]
        fields = self._fields.get(kind)
        if fields is not None:
            names, line = fields
            values: list[Any] = [self._tags[kind]]
            values.extend(self.encode(getattr(value, name), base) for name in names)
            if line >= 0:
                values[line + 1] -= base
            return values
        if kind in self._tags:  # an enum
            return [self._tags[kind], value.value]  # type: ignore[attr-defined]
        if kind is dict:
            return {self.encode(k, base): self.encode(v, base) for k, v in value.items()}  # type: ignore[attr-defined]
        if isinstance(value, Path):
            return [_PATH_TAG, str(value)]
        raise TypeError(f"the cache codec does not write {kind.__name__} values")

    def decode(self, value: Any, base: int = 0) -> Any:
        """The inverse of ``encode``; a value of another shape raises ValueError or TypeError."""
        kind = type(value)
        if kind in _PLAIN:
            return value
        if kind is tuple:
            return tuple([self.decode(v, base) for v in value]) if value else ()
        if kind is list and value and type(value[0]) is str:
            tag, *values = value
            if tag == _PATH_TAG and len(values) == 1 and type(values[0]) is str:
                return Path(values[0])
            cls = self._types.get(tag)
            if cls is None:
                raise ValueError(f"an unknown tag {tag!r}")
            fields = self._fields.get(cls)
            if fields is None:  # an enum
                return cls(*values)
            names, line = fields
            if len(values) != len(names):
                raise ValueError(f"a {tag} of another shape")
            decoded = [self.decode(v, base) for v in values]
            if line >= 0:
                if type(decoded[line]) is not int:
                    raise TypeError(f"a {tag} whose line is not a number")
                decoded[line] += base
            return cls(*decoded)
        if kind is dict:
            return {self.decode(k, base): self.decode(v, base) for k, v in value.items()}
        raise ValueError(f"a stored value of type {kind.__name__}")
