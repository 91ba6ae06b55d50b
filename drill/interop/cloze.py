"""hashcards' cloze cards (`C:` text with `[deletions]`): one card per deletion.

The text is read as hashcards reads it (src/parser.rs, `parse_cloze_cards`): each `[...]` is a
deletion, except an image's `![alt]` and the escaped `\\[` and `\\]`, which are text; the
brackets of deletions are dropped from the text, and an unmatched `]` is dropped too.
"""

from __future__ import annotations

import hashlib

BLANK = "[...]"


def cloze_text(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text without the deletions' brackets, and each deletion as a (start, end) span of it."""
    text = text.strip()
    clean: list[str] = []
    spans: list[tuple[int, int]] = []
    start: int | None = None
    image = escape = False
    for position, character in enumerate(text):
        following = text[position + 1 : position + 2]
        if character == "[":
            if image or escape:
                escape = False
                clean.append(character)
            else:
                start = len(clean)
        elif character == "]":
            if image or escape:
                image = escape = False
                clean.append(character)
            elif start is not None:
                spans.append((start, len(clean)))
                start = None
        elif character == "\\" and following in ("[", "]") and not escape:
            escape = True
        else:
            image = image or (character == "!" and following == "[")
            clean.append(character)
    return "".join(clean), spans


def cloze_cards(text: str) -> list[tuple[str, str]]:
    """(prompt, answer) for each deletion: the text with that deletion shown as `[...]`, and the
    whole text."""
    clean, spans = cloze_text(text)
    return [(clean[:start] + BLANK + clean[end:], clean) for start, end in spans]


def cloze_family(text: str) -> str:
    """A key the cards of one cloze text share, so they are not shown on the same day."""
    return "cloze-" + hashlib.sha256(cloze_text(text)[0].encode()).hexdigest()[:12]
