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

Speed: a field whose type hint admits plain values only (``str``,
``int | None``, ``tuple[str, ...]``) is stored as it is and skipped when
encoding and decoding; the rest are walked. A warm build of a big deck
decodes tens of thousands of items, so this is most of what it saves. Each
dataclass is decoded by a function written for it on first use, one statement
per field, as ``dataclasses`` writes a class's ``__init__`` (a quarter less
time than a loop over the fields: 117 -> 86 ms for a 10,000-item deck's sections).
"""

from __future__ import annotations

import dataclasses
import enum
import marshal
import operator
import types
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

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
T = TypeVar("T")
_PLAIN = frozenset({str, int, float, bool, type(None), bytes})
_PATH_TAG = "Path"


class Codec:
    """Encodes and decodes values of the given dataclass and enum types (and builtins)."""

    def __init__(self, types: Iterable[type] = ()) -> None:
        """``types``: the dataclasses and enums it writes, besides ``MODEL_TYPES``."""
        self._tags: dict[type, str] = {}
        self._types: dict[str, type] = {}
        for cls in (*MODEL_TYPES, *types):
            tag = cls.__qualname__
            if self._types.get(tag, cls) is not cls or tag == _PATH_TAG:
                raise ValueError(f"two types tagged {tag}")
            self._tags[cls], self._types[tag] = tag, cls
        # Worked out on a type's first use: reading every type's hints costs 2-3 ms a codec,
        # paid by every start of ankigen, and most builds write a few types only.
        #: Per dataclass: what reads its fields, their names, the index of its ``line`` field
        #: (-1: none), and the indexes of the fields that may need encoding (not plain).
        self._fields: dict[type, _Layout] = _OnFirstUse(_layout)
        self._dataclasses = frozenset(cls for cls in self._tags if dataclasses.is_dataclass(cls))
        #: Per tag: what builds its value from the tagged list (``Path`` too).
        self._makers: dict[str, Callable[[list[Any], int], Any]] = _OnFirstUse(self._maker_of)
        self._makers[_PATH_TAG] = _path

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

    def reader(self, cls: type[T]) -> Callable[[bytes, int], T]:
        """``loads`` for values of ``cls`` only: one of another type raises TypeError."""

        def loads(data: bytes, base: int) -> T:
            value = self.loads(data, base)
            if not isinstance(value, cls):
                raise TypeError(f"not a {cls.__name__}")
            return value

        return loads

    def encode(self, value: object, base: int = 0) -> Any:
        """``value`` as builtin values (see the module's docstring)."""
        kind = type(value)
        if kind in _PLAIN:
            return value
        plain, encode = _PLAIN, self.encode
        if kind is tuple:
            return tuple([v if type(v) in plain else encode(v, base) for v in value])  # type: ignore[attr-defined]
        if kind in self._dataclasses:
            get, _, line, walked = self._fields[kind]
            values: list[Any] = [self._tags[kind], *get(value)]
            for index in walked:
                field = values[index + 1]
                if type(field) not in plain and field != ():
                    values[index + 1] = encode(field, base)
            if line >= 0:
                values[line + 1] -= base
            return values
        if kind in self._tags:  # an enum
            return [self._tags[kind], value.value]  # type: ignore[attr-defined]
        if kind is dict:
            return {encode(k, base): encode(v, base) for k, v in value.items()}  # type: ignore[attr-defined]
        if isinstance(value, Path):
            return [_PATH_TAG, str(value)]
        raise TypeError(f"the cache codec does not write {kind.__name__} values")

    def decode(self, value: Any, base: int = 0) -> Any:
        """The inverse of ``encode``; a value of another shape raises ValueError or TypeError."""
        try:
            return self._decode(value, base)
        except (KeyError, IndexError) as other:  # an unknown tag, a list without one
            raise ValueError("a stored value of another shape") from other

    def _decode(self, value: Any, base: int) -> Any:
        kind = type(value)
        if kind is list:
            return self._makers[value[0]](value, base)
        plain, makers, decode = _PLAIN, self._makers, self._decode
        if kind is tuple:
            # Written out (a tagged value built here, not through ``_decode``): a big deck's
            # tuples of claims and formulas are most of what a warm build decodes.
            return tuple(
                [
                    v
                    if type(v) in plain
                    else makers[v[0]](v, base)
                    if type(v) is list
                    else decode(v, base)
                    for v in value
                ]
            )
        if kind in plain:
            return value
        if kind is dict:
            return {decode(k, base): decode(v, base) for k, v in value.items()}
        raise ValueError(f"a stored value of type {kind.__name__}")

    def _maker_of(self, tag: str) -> Callable[[list[Any], int], Any]:
        """What builds a value of the type tagged ``tag`` (KeyError: no such type)."""
        return self._maker(self._types[tag])

    def _maker(self, cls: type) -> Callable[[list[Any], int], Any]:
        """What builds a ``cls`` from its tagged list (``encode``'s form)."""
        if cls not in self._dataclasses:  # an enum
            members: dict[Any, Any] = {member.value: member for member in cls}  # type: ignore[attr-defined]

            def member(value: list[Any], base: int) -> Any:
                if len(value) != 2 or value[1] not in members:
                    raise ValueError(f"a {cls.__name__} of another shape")
                return members[value[1]]

            return member
        _, names, line, walked = self._fields[cls]
        return _instance_maker(cls, names, line, walked, self._decode)


#: What reads a dataclass's fields, their names, its ``line`` field's index, the walked ones.
_Layout = tuple[Callable[[Any], tuple[Any, ...]], tuple[str, ...], int, tuple[int, ...]]
K = TypeVar("K")
V = TypeVar("V")


class _OnFirstUse(dict[K, V]):
    """A dict whose missing values are made (and kept) when first asked for with ``[]``."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self._make(key)
        return value


def _layout(cls: type) -> _Layout:
    """How a dataclass is written (``Codec._fields``)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    line = names.index("line") if "line" in names else -1
    return _getter(names), names, line, _walked(cls, names)


def _instance_maker(
    cls: type,
    names: tuple[str, ...],
    line: int,
    walked: tuple[int, ...],
    decode: Callable[[Any, int], Any],
) -> Callable[[list[Any], int], Any]:
    """What makes a ``cls`` from its tagged list (``encode``'s form), lines moved to a base.

    Written out for the class, as ``dataclasses`` writes a class's ``__init__``:
    one statement per field, from ``dataclasses.fields`` (no field is named by
    hand). A walked field (one that may hold a model value) is decoded unless
    it holds a plain value; ``line`` must be a number. A frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``; one with slots
    and nothing to run after it (no ``__post_init__``) is made by setting its
    slots directly, the same object, at a fraction of the cost (a warm build of
    a big deck makes hundreds of thousands).
    """
    slots = getattr(cls, "__slots__", ())
    direct = not hasattr(cls, "__post_init__") and tuple(slots) == names
    fields = []
    for index, _name in enumerate(names, start=1):
        value = f"value[{index}]"
        if index - 1 == line:
            fields.append(f"_line({value}, base)")
        elif index - 1 in walked:
            fields.append(f"_field({value}, base)")
        else:
            fields.append(value)
    if direct:
        body = ["made = new(cls)"]
        body += [f"set_{index}(made, {field})" for index, field in enumerate(fields)]
        body += ["return made"]
    else:
        body = [f"return cls({', '.join(fields)})"]
    source = "\n".join(
        [
            "def make(value, base):",
            f"    if len(value) != {len(names) + 1}:",
            "        raise ValueError(shape)",
            *(f"    {statement}" for statement in body),
        ]
    )
    plain = _PLAIN

    def field(value: Any, base: int) -> Any:
        return value if type(value) in plain or value == () else decode(value, base)

    def line_of(value: Any, base: int) -> int:
        if type(value) is not int:
            raise TypeError(f"a {cls.__name__} whose line is not a number")
        return value + base

    scope: dict[str, Any] = {
        "cls": cls,
        "new": object.__new__,
        "shape": f"a {cls.__name__} of another shape",
        "_field": field,
        "_line": line_of,
    }
    if direct:
        scope.update({f"set_{i}": getattr(cls, name).__set__ for i, name in enumerate(names)})
    exec(source, scope)  # the source is made above, from the class's own fields only
    made: Callable[[list[Any], int], Any] = scope["make"]
    return made


def _path(value: list[Any], base: int) -> Path:
    """A ``Path`` from its tagged list."""
    if len(value) != 2 or type(value[1]) is not str:
        raise ValueError("a Path of another shape")
    return Path(value[1])


def _walked(cls: type, names: tuple[str, ...]) -> tuple[int, ...]:
    """The indexes of the fields whose type admits a value to encode (all, when unknown).

    A field typed with plain types only (``str``, ``int | None``, ``tuple[str, ...]``)
    is stored as it is, so encoding and decoding skip it: most fields of a big deck.
    """
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):
        return tuple(range(len(names)))
    return tuple(i for i, name in enumerate(names) if not _is_plain(hints.get(name)))


def _is_plain(hint: object) -> bool:
    """Whether every value of the type ``hint`` is a plain value or a tuple of them."""
    if hint is None or hint in _PLAIN:
        return True
    origin = typing.get_origin(hint)
    if origin in (tuple, typing.Union, types.UnionType):
        return all(arg is Ellipsis or _is_plain(arg) for arg in typing.get_args(hint))
    return False


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """What reads the fields ``names`` of a value, as a tuple (one C call per value)."""
    if not names:
        return lambda value: ()
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda value: (get(value),)
    return get
