"""An imported deck as a content file (format version 3, ``claims: off``).

Every item gets an ``id`` (from its question's first words) and, where that
id does not make the GUID the note had, an explicit ``guid``; a comment on
the line before it names the source file and line it came from. Tags
every item shares go to the front matter, section and callout tags come from
the structure, the rest to the item's metadata.
"""

from __future__ import annotations

import json

from ankigen.diagnostics import Diagnostic
from ankigen.importers.markdown_text import text_to_markdown
from ankigen.importers.model import ImportedDeck, ImportedItem
from ankigen.parse.freeze import note_guid
from ankigen.parse.metadata import encode_guid
from ankigen.parse.slug import slugify
from ankigen.syntax import cloze

_ID_WORDS = 6
_ID_LENGTH = 48


def deck_key(deck: ImportedDeck) -> str:
    """The deck's ``key``: its file stem (written in the front matter, so a rename keeps it)."""
    return deck.stem


def content_file(deck: ImportedDeck) -> tuple[str, tuple[Diagnostic, ...]]:
    """The content file's text, and what of the items' tags could not be written."""
    problems: list[Diagnostic] = []
    shared = _shared_tags(deck.items)
    lines = _front_matter(deck, shared)
    title = deck.name.split("::")[-1]
    lines += [f"# {_heading(title)}", ""]
    ids: set[str] = set()
    section: str | None = None
    callout: tuple[str, str] | None = None
    for item in deck.items:
        if item.section != section:
            lines += _close_callout(callout)
            callout = None
            lines += [
                f"## {_heading(item.section)}" if item.section else f"# {_heading(title)}",
                "",
            ]
            section = item.section
        if item.callout != callout:
            lines += _close_callout(callout)
            callout = item.callout
            if callout is not None:
                lines += [f"> [!{callout[0]}] {_heading(callout[1])}", ">"]
        item_id = _unique_id(item, ids)
        block = _item_lines(item, item_id, deck_key(deck), _own_tags(item, shared, problems))
        lines += [f"> {ln}" if ln else ">" for ln in block] if callout else block
        lines.append(">" if callout else "")
    while lines and lines[-1] in ("", ">"):
        lines.pop()
    return "\n".join(lines) + "\n", tuple(problems)


def _front_matter(deck: ImportedDeck, shared: tuple[str, ...]) -> list[str]:
    lines = ["---", f"deck: {json.dumps(deck.name, ensure_ascii=False)}"]
    lines.append(f"key: {json.dumps(deck_key(deck))}")
    if shared:
        lines.append(f"tags: {json.dumps(list(shared), ensure_ascii=False)}")
    lines += ["claims: off", f"math: {deck.math}"]
    if deck.prompts:
        lines.append("prompt:")
        for heading, line in deck.prompts:
            shown = "none" if line is None else json.dumps(line, ensure_ascii=False)
            lines.append(f"  {json.dumps(heading, ensure_ascii=False)}: {shown}")
    return [
        *lines,
        "---",
        "",
        f"<!-- imported by ankigen from {_comment_text(deck.source)} -->",
        "",
    ]


def _item_lines(item: ImportedItem, item_id: str, key: str, tags: list[str]) -> list[str]:
    fields = [f"id: {item_id}"]
    if tags:
        fields.append("tags: " + " ".join(tags))
    if item.guid is not None and item.guid != note_guid(key, item_id, ""):
        fields.append(f"guid: {encode_guid(item.guid)}")
    metadata = f"<!-- {'; '.join(fields)} -->"
    lines = [f"<!-- from: {_comment_text(str(item.origin))} -->"]
    blocks = [b for b in item.answer.split("\n\n") if b.strip()] if item.answer.strip() else []
    if not blocks:  # a cloze without Extra: its paragraph alone
        return [*lines, *item.question.split("\n"), metadata]
    first = blocks[0]
    if _is_plain_paragraph(first):
        lines += f"{item.question} ::: {first}".split("\n")
        rest = blocks[1:]
    else:  # the separator ends the question's own line: alone on the next, it would not
        # belong to a question that is one display formula (a block of its own)
        lines += f"{item.question} :::".split("\n")
        rest = blocks
    for block in rest:
        lines += ["", *block.split("\n")]
    lines.append(metadata)
    return lines


def _is_plain_paragraph(block: str) -> bool:
    """A block that reads as one paragraph after ``:::`` (not a list, code, quote, table...)."""
    first = block.lstrip()
    return not first.startswith(
        ("- ", "* ", "+ ", "```", "~~~", ">", "|", "#", "$$", "<details>")
    ) and not (first[:1].isdigit() and first.split(" ", 1)[0].rstrip(".)").isdigit())


def _close_callout(callout: tuple[str, str] | None) -> list[str]:
    return [""] if callout is not None else []


def _heading(text: str) -> str:
    return text_to_markdown(" ".join(text.split())).markdown or "-"


def _comment_text(text: str) -> str:
    """Text that can stand in an HTML comment (no ``--``, no ``>`` that could end it)."""
    return text.replace("--", "- -").replace(">", "&gt;")


def _shared_tags(items: tuple[ImportedItem, ...]) -> tuple[str, ...]:
    tag_sets = [set(item.tags) for item in items]
    if len(tag_sets) < 2:  # one item's tags stay with it
        return ()
    common = set.intersection(*tag_sets)
    return tuple(tag for tag in items[0].tags if tag in common and _writable(tag))


def _own_tags(item: ImportedItem, shared: tuple[str, ...], problems: list[Diagnostic]) -> list[str]:
    """The item's tags that neither the front matter, its section nor its callout give it."""
    given = {*shared, slugify(item.section or ""), item.callout[0] if item.callout else ""}
    own = []
    for tag in item.tags:
        if tag in given:
            continue
        if _writable(tag):
            own.append(tag)
        else:
            problems.append(item.origin.lost(f"tag '{tag}' (it holds ';', '-->' or '>')"))
    return own


def _writable(tag: str) -> bool:
    return bool(tag) and ";" not in tag and "--" not in tag and ">" not in tag and tag.isprintable()


def _unique_id(item: ImportedItem, taken: set[str]) -> str:
    """An id from the question's first words, unique in the deck (``-2``, ``-3``... after it)."""
    words = slugify(cloze.OPENER.sub(" ", item.question)).split("-")[:_ID_WORDS]
    base = "-".join(words)[:_ID_LENGTH].strip("-") or "item"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate
