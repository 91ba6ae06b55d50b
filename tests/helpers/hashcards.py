"""hashcards' own reading of a Markdown deck, ported line for line from its parser
(github.com/eudoxia0/hashcards, src/parser.rs, Apache-2.0), to check that a file drill imported
is still a deck hashcards reads, with the same cards.

A card is ("basic", question, answer) or ("cloze", text, start, end) with the deletion's span
as hashcards keeps it (in the text without brackets, `end` inclusive); a file hashcards refuses
raises HashcardsError with its message and 0-based line, as hashcards reports them.
"""

from __future__ import annotations

import tomllib

Card = tuple[str, str, str] | tuple[str, str, int, int]


class HashcardsError(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"{message} (line {line + 1})")
        self.line = line


def _front_matter(text: str) -> str:
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return text
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == "---":
            try:
                tomllib.loads("\n".join(lines[1:index]))
            except tomllib.TOMLDecodeError as error:
                raise HashcardsError(f"Failed to parse TOML frontmatter: {error}", 0) from None
            return "\n".join(lines[index + 1 :])
    raise HashcardsError("Frontmatter opening '---' found but no closing '---'", 0)


def _cloze(text: str, line: int) -> list[Card]:
    """parse_cloze_cards: the text without deletion brackets and one card per deletion."""
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
            if not image and following == "[":
                image = True
            clean.append(character)
        elif character == "\\":
            if not escape:
                if following in ("[", "]"):
                    escape = True
                else:
                    clean.append(character)
        else:
            clean.append(character)
    cards: list[Card] = []
    start: int | None = None
    index = 0
    image = escape = False
    for position, character in enumerate(text):
        following = text[position + 1 : position + 2]
        if character == "[":
            if image:
                index += 1
            elif escape:
                index += 1
                escape = False
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
                cards.append(("cloze", "".join(clean), start, index - 1))
                start = None
        elif character == "!":
            if not image and following == "[":
                image = True
            index += 1
        elif character == "\\":
            if not escape:
                if following in ("[", "]"):
                    escape = True
                else:
                    index += 1
        else:
            index += 1
    if not cards:
        raise HashcardsError("Cloze card must contain at least one cloze deletion.", line)
    return cards


def parse(text: str) -> list[Card]:
    """The cards hashcards reads from a deck file, duplicates removed, in file order."""
    lines = _front_matter(text).splitlines()
    cards: list[Card] = []
    state, parts, start = "start", [""], 0
    for number, line in enumerate([*lines, None]):
        tag = None if line is None else line[:2] if line[:2] in ("Q:", "A:", "C:") else None
        body = "" if line is None else line[2:].strip() if tag else line
        separator = line is not None and line.strip() == "---"
        if state == "answer" and (line is None or tag in ("Q:", "C:") or separator):
            cards.append(("basic", parts[0].strip(), parts[1].strip()))
            state = "start"
        elif state == "cloze" and (line is None or tag in ("Q:", "C:") or separator):
            cards += _cloze(parts[0], start)
            state = "start"
        if line is None:
            if state == "question":
                raise HashcardsError("File ended while reading a question without an answer.", number)
            break
        if state == "start":
            if tag == "A:":
                raise HashcardsError("Found answer tag without a question.", number)
            if tag in ("Q:", "C:"):
                state, parts, start = ("question" if tag == "Q:" else "cloze"), [body], number
            elif not separator and line.strip():
                raise HashcardsError("Found text that doesn't parse as a flashcard.", number)
        elif state == "question":
            if tag == "A:":
                state = "answer"
                parts.append(body)
            elif tag or separator:
                raise HashcardsError("Found a tag or separator while reading a question.", number)
            else:
                parts[0] += "\n" + line
        elif tag == "A:":
            raise HashcardsError("Found answer tag while reading an answer or cloze.", number)
        else:
            parts[-1] += "\n" + line
    unique: list[Card] = []
    for card in cards:
        if card not in unique:
            unique.append(card)
    return unique


def blanked(card: Card) -> tuple[str, str]:
    """A card as drill shows it: (question, answer); a cloze card's deletion as `[...]`."""
    if card[0] == "basic":
        return card[1], card[2]
    _, text, start, end = card
    assert isinstance(text, str) and isinstance(start, int) and isinstance(end, int)
    return text[:start] + "[...]" + text[end + 1 :], text
