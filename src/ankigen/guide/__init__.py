"""The author's guide shipped inside the package: ``ankigen guide [TOPIC]``.

``format.md`` here is a link to the project's ``docs/format.md`` (the whole
content format, its checks, limits and diagnostic codes; a wheel stores the
file it points to), so that an author who installed ankigen with pip has it
too. ``tests/cli/test_guide.py`` checks the link.

A topic is a section of the guide: by number (``12``, ``13.2``), by words
of its title (``cloze``, ``front matter``) or by one of a few short names
(``codes``, ``limits``, ``checks``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from importlib import resources

from ankigen.parse.slug import slugify

#: Short names for the sections authors look up most.
ALIASES = {
    "codes": "13.2",
    "near-misses": "13.1",
    "checks": "12",
    "limits": "limits",
    "cli": "14",
    "commands": "14",
    "format": "all",
}
_HEADING = re.compile(r"^(#{2,3}) (?:(\d+(?:\.\d+)?)\.? )?(.+)$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


@dataclass(frozen=True)
class Section:
    """One ``##`` or ``###`` section of the guide, with its text up to the next one of its level."""

    level: int
    number: str
    title: str
    text: str

    @property
    def slug(self) -> str:
        """The section's title as a topic name (``Front matter`` -> ``front-matter``)."""
        return slugify(self.title)


class UnknownTopic(LookupError):
    """No section answers to a topic; ``suggestions`` are the nearest topic names."""

    def __init__(self, topic: str, suggestions: list[str]) -> None:
        super().__init__(topic)
        self.topic = topic
        self.suggestions = suggestions


def guide_text() -> str:
    """The whole guide, as shipped in the package."""
    return resources.files("ankigen.guide").joinpath("format.md").read_text("utf-8")


def sections(text: str) -> list[Section]:
    """Every ``##`` and ``###`` section of ``text``, headings inside code fences left out."""
    lines = text.splitlines(keepends=True)
    heads: list[tuple[int, int, str, str]] = []  # line index, level, number, title
    fence = ""
    for index, line in enumerate(lines):
        opener = _FENCE.match(line)
        if opener and (not fence or line.strip() == fence[0] * len(line.strip())):
            if not fence:
                fence = opener.group(1)
            elif len(line.strip()) >= len(fence):
                fence = ""
            continue
        heading = None if fence else _HEADING.match(line.rstrip("\n"))
        if heading:
            heads.append((index, len(heading[1]), heading[2] or "", heading[3].strip()))
    found = []
    for position, (index, level, number, title) in enumerate(heads):
        end = next((i for i, lvl, _, _ in heads[position + 1 :] if lvl <= level), len(lines))
        found.append(Section(level, number, title, "".join(lines[index:end]).rstrip() + "\n"))
    return found


def topics(text: str) -> list[Section]:
    """The numbered top-level sections, in order: the topics ``ankigen guide`` lists."""
    return [s for s in sections(text) if s.level == 2 and s.number]


def index_text(text: str) -> str:
    """The guide's opening (before its first section) and the list of topics."""
    first = re.search(r"^## ", text, re.M)
    opening = text[: first.start()] if first else text
    listing = [f"  ankigen guide {s.number:<3} {s.title}" for s in topics(text)]
    shorts = ", ".join(sorted(ALIASES))
    return (
        opening.rstrip()
        + "\n\nTopics (a number, a subsection such as 13.2, or words of a title):\n\n"
        + "\n".join(listing)
        + f"\n\nShort names: {shorts}; 'ankigen guide all' prints everything.\n"
    )


def topic_text(topic: str | None, text: str | None = None) -> str:
    """The text of the section ``topic`` names; the index for no topic (raises ``UnknownTopic``)."""
    text = guide_text() if text is None else text
    if not topic:
        return index_text(text)
    wanted = ALIASES.get(slugify(topic), topic.strip())
    if wanted == "all":
        return text
    every = sections(text)
    by_number = [s for s in every if s.number and s.number == wanted.rstrip(".")]
    if by_number:
        return by_number[0].text
    slug = slugify(wanted)
    exact = [s for s in every if s.slug == slug]
    partial = [s for s in every if slug and re.search(rf"(^|-){re.escape(slug)}", s.slug)]
    match = sorted(exact or partial, key=lambda s: s.level)  # a section before a subsection
    if match:
        return match[0].text
    names = sorted({s.slug for s in topics(text)} | set(ALIASES))
    raise UnknownTopic(topic, difflib.get_close_matches(slugify(topic), names, n=3, cutoff=0.4))
