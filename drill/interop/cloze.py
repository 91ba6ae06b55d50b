"""hashcards' cloze cards (`C:` text with `[deletions]`): one card per deletion.

The text is read as hashcards reads it (src/parser.rs, `parse_cloze_cards`): each `[...]` is a
deletion, except an image's `![alt]` and the escaped `\\[` and `\\]`, which are text; the
brackets of deletions are dropped from the text, and an unmatched `]` is dropped too.
"""

from __future__ import annotations

import hashlib

BLANK = "[...]"


def cloze_text(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without the deletions' brackets, and each deletion as a (start, end) span of it:
    hashcards' two passes, quirks included (a `]` closes an image before it ends an escape)."""
    text = text.strip()
    clean: list[str] = []
    image = escape = False
    for position, character in enumerate(text):
        following = text[position + 1 : position + 2]
        if character == "[":
            if image:
                clean.append(character)
            if escape:
                escape = False
                clean.append(character)
        elif character == "]":
            if image:
                image = False
                clean.append(character)
            elif escape:
                escape = False
                clean.append(character)
        elif character == "!":
            image = image or following == "["
            clean.append(character)
        elif character == "\\":
            if not escape and following in ("[", "]") and following:
                escape = True
            elif not escape:
                clean.append(character)
        else:
            clean.append(character)
    return "".join(clean), _deletions(text)


def _deletions(text: str) -> list[tuple[int, int]]:
    """Each deletion's span of the text cloze_text leaves, counted as hashcards counts it."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    index = 0
    image = escape = False
    for position, character in enumerate(text):
        following = text[position + 1 : position + 2]
        if character == "[":
            if image:
                index += 1
            elif escape:
                escape = False
                index += 1
            else:
                start = index
        elif character == "]":
            if image:
                image = False
                index += 1
            elif escape:
                escape = False
                index += 1
            elif start is not None:
                spans.append((start, index))
                start = None
        elif character == "!":
            image = image or following == "["
            index += 1
        elif character == "\\":
            if not escape and following in ("[", "]") and following:
                escape = True
            elif not escape:
                index += 1
        else:
            index += 1
    return spans


def cloze_cards(text: str) -> list[tuple[str, str]]:
    """(prompt, answer) for each deletion: the text with that deletion shown as `[...]`, and the
    whole text."""
    clean, spans = cloze_text(text)
    return [(clean[:start] + BLANK + clean[end:], clean) for start, end in spans]


def cloze_family(text: str) -> str:
    """A key the cards of one cloze text share, so they are not shown on the same day."""
    return "cloze-" + hashlib.sha256(cloze_text(text)[0].encode()).hexdigest()[:12]
