"""Front matter: the optional YAML block that sets deck-wide options."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import yaml

from ankigen.diagnostics import Code, Sink
from ankigen.model import ClaimLevel, MathMode
from ankigen.parse.front_macros import read_macros
from ankigen.syntax import decks
from ankigen.syntax import tags as tags_syntax
from ankigen.syntax.tex_macros import Macro

_KNOWN_KEYS = (
    "deck", "key", "tags", "subdecks", "math", "context", "prompt", "claims", "macros",
)  # fmt: skip
#: Front matter is a flat mapping with one list (tags); anything deeper is refused
#: before PyYAML's recursive composer could overflow the stack.
MAX_FRONT_MATTER_DEPTH = 8
_OPENERS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSERS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


@dataclass(frozen=True)
class FrontMatter:
    """Deck options as written; ``None`` where the file does not set them."""

    deck: str | None = None
    key: str | None = None
    tags: tuple[str, ...] = ()
    subdecks: bool = False
    math: MathMode | None = None
    #: Line of ``key:`` counted from the opening ``---`` (0 when there is no key).
    key_line: int = 0
    #: ``context: none`` turns the context line off on every card of the file.
    context: bool = True
    #: ``prompt:`` per section heading: the line shown, or None for no line.
    prompts: tuple[tuple[str, str | None], ...] = ()
    prompt_line_offset: int = 0
    #: ``claims:``: which numbers and formulas are claims (None: the project's default).
    claims: ClaimLevel | None = None
    #: ``macros:`` (format §17), which override the project's macros of the same name.
    macros: tuple[Macro, ...] = ()


def read_front_matter(text: str, sink: Sink) -> FrontMatter:
    """Parse and validate the YAML between the ``---`` lines.

    Problems go to ``sink``, whose line 1 is the YAML's first line.
    """
    try:
        if not _structure_is_safe(text, sink):
            return FrontMatter()
        data = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        offset, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = getattr(exc, "problem", None) or "invalid YAML"
        sink.error(
            offset,
            Code.FRONT_MATTER_NOT_YAML.message(problem=problem),
            column=column,
            code=Code.FRONT_MATTER_NOT_YAML,
        )
        return FrontMatter()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        sink.error(
            1,
            Code.FRONT_MATTER_NOT_MAPPING.message(),
            column=1,
            code=Code.FRONT_MATTER_NOT_MAPPING,
        )
        return FrontMatter()
    for key in data:
        if key not in _KNOWN_KEYS:
            sink.error(
                _line_of_key(text, str(key)),
                Code.UNKNOWN_FRONT_MATTER_KEY.message(
                    key=key, meant=_meant(str(key)), known=", ".join(_KNOWN_KEYS)
                ),
                column=1,
                code=Code.UNKNOWN_FRONT_MATTER_KEY,
            )
    values = {
        "deck": _string(data, "deck", text, sink),
        "key": _string(data, "key", text, sink),
        "tags": _tags(data, text, sink),
        "subdecks": _boolean(data, "subdecks", text, sink),
        "math": _math(data, text, sink),
        "claims": _claims(data, text, sink),
        "context": _context(data, text, sink),
        "prompts": _prompts(data, text, sink),
        "prompt_line_offset": _line_of_key(text, "prompt") if "prompt" in data else 0,
        "macros": read_macros(data.get("macros"), text, _line_of_key(text, "macros"), sink),
    }
    deck = values["deck"]
    if isinstance(deck, str) and (why := decks.problem(deck)):
        line, column = _place_of(text, "deck", deck[:40])
        message = decks.DECK_TOO_DEEP.message(what="front matter 'deck'", why=why)
        sink.error(line, message, column=column, code=decks.DECK_TOO_DEEP)
    key_line = _line_of_key(text, "key") if values["key"] is not None else 0
    return FrontMatter(**values, key_line=key_line)  # type: ignore[arg-type]


def _meant(key: str) -> str:
    """The known key an unknown one was probably meant as (``cards-deck``, ``Deck``,
    ``tag``), said in the message; nothing when none is close."""
    folded = key.lower()
    close = difflib.get_close_matches(folded, _KNOWN_KEYS, n=1, cutoff=0.7)
    within = [known for known in _KNOWN_KEYS if len(known) > 3 and known in folded]
    meant = close or within
    return f": did you mean '{meant[0]}'?" if meant else ""


def _structure_is_safe(text: str, sink: Sink) -> bool:
    """Refuse anchors, aliases and deep nesting, reading only the event stream.

    An alias makes ``safe_load`` build the aliased value again wherever it is
    used, so a few hundred bytes of nested aliases ("billion laughs") expand to
    gigabytes. The event stream is read in one pass without expanding anything.
    """
    depth = 0
    keys = _TopKeys(sink)
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        line, column = _place(event)
        keys.see(event, depth)
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            sink.error(
                line,
                Code.YAML_ALIAS.message(),
                column=column,
                code=Code.YAML_ALIAS,
            )
            return False
        depth += isinstance(event, _OPENERS)
        depth -= isinstance(event, _CLOSERS)
        if depth > MAX_FRONT_MATTER_DEPTH:
            sink.error(
                line,
                Code.FRONT_MATTER_TOO_DEEP.message(most=MAX_FRONT_MATTER_DEPTH),
                column=column,
                code=Code.FRONT_MATTER_TOO_DEEP,
            )
            return False
    return True


class _TopKeys:
    """The keys of the front matter's mapping, read from the event stream: one written
    twice is an error (``safe_load`` keeps the last, so a ``claims: off`` added below
    ``claims: all`` would lower the claim level without a word)."""

    def __init__(self, sink: Sink) -> None:
        self._sink = sink
        self._seen: dict[str, int] = {}
        self._expect_key = False

    def see(self, event: yaml.Event, depth: int) -> None:
        """Take one event, at the depth before it (1: inside the top mapping)."""
        if depth == 0 and isinstance(event, yaml.MappingStartEvent):
            self._expect_key = True
        elif depth == 1 and isinstance(event, yaml.ScalarEvent):
            if self._expect_key:
                self._key(event)
            self._expect_key = not self._expect_key
        elif depth == 2 and isinstance(event, _CLOSERS):
            self._expect_key = True  # a collection value ended

    def _key(self, event: yaml.ScalarEvent) -> None:
        line, column = _place(event)
        first = self._seen.setdefault(event.value, line)
        if first != line:
            # The message names a line of the file, as the location does.
            shown = first + self._sink.first_line - 1
            message = Code.FRONT_MATTER_KEY_TWICE.message(key=event.value, first=shown)
            self._sink.error(line, message, column=column, code=Code.FRONT_MATTER_KEY_TWICE)


def _place(event: yaml.Event) -> tuple[int, int]:
    """The 1-based line (from the opening ``---``) and column where an event starts."""
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _line_of_key(text: str, key: str) -> int:
    for offset, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith(f"{key}:") or line.lstrip().startswith(f"{key} :"):
            return offset
    return 1


def _string(data: dict[object, object], key: str, text: str, sink: Sink) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip():
        return str(value).strip()
    sink.error(
        _line_of_key(text, key),
        Code.FRONT_MATTER_NOT_A_NAME.message(key=key),
        column=1,
        code=Code.FRONT_MATTER_NOT_A_NAME,
    )
    return None


def _tags(data: dict[object, object], text: str, sink: Sink) -> tuple[str, ...]:
    value = data.get("tags")
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(t, (str, int)) for t in value):
        sink.error(
            _line_of_key(text, "tags"),
            Code.FRONT_MATTER_TAGS_NOT_WORDS.message(),
            column=1,
            code=Code.FRONT_MATTER_TAGS_NOT_WORDS,
        )
        return ()
    tags = [str(t).strip() for t in value]
    bad = [t for t in tags if not t or any(c.isspace() for c in t)]
    if bad:
        sink.error(
            _line_of_key(text, "tags"),
            Code.FRONT_MATTER_TAG_WITH_SPACE.message(tag=bad[0]),
            column=1,
            code=Code.FRONT_MATTER_TAG_WITH_SPACE,
        )
        return ()
    reserved = [t for t in tags if tags_syntax.is_reserved(t)]
    for tag in reserved:
        line, column = _place_of(text, "tags", tag)
        sink.error(
            line, tags_syntax.reserved_message(tag), column=column, code=tags_syntax.RESERVED
        )
    return () if reserved else tuple(tags)


def _place_of(text: str, key: str, value: str) -> tuple[int, int]:
    """The line and column of ``value`` at or after ``key``'s line (not found, as when
    YAML decoded an escape in it: the column of the value after ``key:``)."""
    start = _line_of_key(text, key)
    lines = text.splitlines()
    for number in range(start, len(lines) + 1):
        column = lines[number - 1].find(value, len(key) + 1 if number == start else 0)
        if column >= 0:
            return number, column + 1
    key_line = lines[start - 1] if start <= len(lines) else ""
    after_key = key_line.find(":") + 1
    return start, after_key + len(key_line[after_key:]) - len(key_line[after_key:].lstrip()) + 1


def _boolean(data: dict[object, object], key: str, text: str, sink: Sink) -> bool:
    value = data.get(key, False)
    if isinstance(value, bool):
        return value
    sink.error(
        _line_of_key(text, key),
        Code.FRONT_MATTER_NOT_BOOLEAN.message(key=key),
        column=1,
        code=Code.FRONT_MATTER_NOT_BOOLEAN,
    )
    return False


def _math(data: dict[object, object], text: str, sink: Sink) -> MathMode | None:
    value = data.get("math")
    if value is None:
        return None
    try:
        return MathMode(str(value))
    except ValueError:
        sink.error(
            _line_of_key(text, "math"),
            Code.FRONT_MATTER_MATH_MODE.message(value=value),
            column=1,
            code=Code.FRONT_MATTER_MATH_MODE,
        )
        return None


def _claims(data: dict[object, object], text: str, sink: Sink) -> ClaimLevel | None:
    value = data.get("claims")
    if value is None:
        return None
    # YAML 1.1 reads a bare ``off`` as False.
    word = "off" if value is False else str(value)
    try:
        return ClaimLevel(word)
    except ValueError:
        names = [f"'{level.value}'" for level in ClaimLevel]
        levels = ", ".join(names[:-1]) + " or " + names[-1]
        sink.error(
            _line_of_key(text, "claims"),
            Code.FRONT_MATTER_CLAIM_LEVEL.message(levels=levels, value=value),
            column=1,
            code=Code.FRONT_MATTER_CLAIM_LEVEL,
        )
        return None


#: Values that mean "no context line" (YAML reads ``none`` as a string).
_NONE = (None, False, "none", "None")


def _context(data: dict[object, object], text: str, sink: Sink) -> bool:
    value = data.get("context", "auto")
    if value in _NONE:
        return False
    if value == "auto":
        return True
    sink.error(
        _line_of_key(text, "context"),
        Code.FRONT_MATTER_CONTEXT.message(value=value),
        column=1,
        code=Code.FRONT_MATTER_CONTEXT,
    )
    return True


def _prompts(
    data: dict[object, object], text: str, sink: Sink
) -> tuple[tuple[str, str | None], ...]:
    value = data.get("prompt")
    if value is None:
        return ()
    good = isinstance(value, dict) and all(
        (isinstance(v, str) and v.strip()) or v in _NONE for v in value.values()
    )
    if not isinstance(value, dict) or not good:
        sink.error(
            _line_of_key(text, "prompt"),
            Code.FRONT_MATTER_PROMPT.message(),
            column=1,
            code=Code.FRONT_MATTER_PROMPT,
        )
        return ()
    return tuple((str(k).strip(), None if v in _NONE else str(v).strip()) for k, v in value.items())
