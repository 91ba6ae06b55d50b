"""What a deck parser returns: the cards it read, its errors, and the source with new ids."""

from __future__ import annotations

from dataclasses import dataclass, field

from drill.content.errors import ContentError


@dataclass(frozen=True)
class ParsedCard:
    """One question and answer read from a source file; block and topic only when the row names them."""

    id: str
    prompt: str
    answer: str
    line: int
    block: str | None = None
    topic: str | None = None
    from_drill: bool = False  # the id is drill's own, read back from a note drill exported


@dataclass
class ParsedSource:
    """A parse of a whole file: `rewritten` is its text with the `new_ids` newly assigned ids written
    in, None when there are none."""

    cards: list[ParsedCard] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    rewritten: str | None = None
    new_ids: int = 0
