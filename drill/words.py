"""How drill writes a count ('1 day', '3 days', '0 reviews') and the article before a number ('an
8B-parameter', 'a 1024×1024'): one way, used by the screens, the CLI and the problem templates."""

from __future__ import annotations

import re

AN_NUMBER = re.compile(r"8|1[18](?:\D|$|\d{3}(?!\d)|\d{6}(?!\d))")  # eight…, eleven…, eighteen… (11,000; 18M)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and its noun, singular only for exactly one; `plural` when it is not noun + 's'."""
    return f"{number} {noun_for(number, noun, plural)}"


def noun_for(number: int, noun: str, plural: str | None = None) -> str:
    """The noun as said of `number` things, the number left out ('unknown parameters a, b')."""
    return noun if number == 1 else plural or noun + "s"


def article(phrase: str) -> str:
    """'a' or 'an' as said before `phrase`: 'an 8B-parameter model', 'an 11-layer', 'a 1024-token',
    'an H100' (said 'aitch'), 'an item'."""
    first = phrase.lstrip()
    if first[:1].isdigit():
        return "an" if AN_NUMBER.match(first.replace(",", "")) else "a"
    if first[:1] in "Hh" and first[1:2].isdigit():
        return "an"
    return "an" if first[:1].lower() in "aeiou" else "a"
