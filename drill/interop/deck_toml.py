"""Deck items written as a TOML deck file in the format drill/content/decks.py reads."""

from __future__ import annotations

import json
import re

from drill.content.models import DeckItem

SOURCE_LINE = re.compile(r'^# drill import source: (".*")$')
ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\f": "\\f", "\r": "\\r"}


def _escape(character: str) -> str:
    if character in ESCAPES:
        return ESCAPES[character]
    if (ord(character) < 0x20 and character not in "\n\t") or ord(character) == 0x7F:
        return f"\\u{ord(character):04x}"
    return character


def toml_string(text: str) -> str:
    """A TOML basic string for `text`; a multi-line one (\"\"\"…\"\"\") when it spans lines."""
    escaped = "".join(_escape(character) for character in text)
    if "\n" in text:
        return f'"""\n{escaped}"""'
    return '"' + escaped.replace("\t", "\\t") + '"'


def _value(value: object) -> str:
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_string(entry) for entry in value) + "]"
    return str(value)


def render_deck(items: list[DeckItem], source: str) -> str:
    """The deck file for `items`, headed by the source it was imported from."""
    lines = [
        f"# drill import source: {json.dumps(source, ensure_ascii=False)}",
        "# Written by `drill import`, which keeps here the ids it gave the source's cards (it never writes the",
        "# source). Edit the source file and import it again; changes made here are replaced.",
    ]
    for item in items:
        lines += ["", "[[item]]"]
        lines += [f"{key} = {_value(value)}" for key, value in item.model_dump(exclude_defaults=True).items()]
    return "\n".join(lines) + "\n"


def imported_from(deck_text: str) -> str | None:
    """The source named in a deck's first line, when `drill import` wrote it."""
    match = SOURCE_LINE.match(deck_text.split("\n", 1)[0])
    return json.loads(match.group(1)) if match else None
