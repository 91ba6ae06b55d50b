"""What a deck parser returns: the cards it read, its errors and warnings, and how to write ids in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from drill.content.errors import ContentError


@dataclass(frozen=True)
class ParsedCard:
    """One question and answer read from a source file; block and topic only when the row names
    them. `id` is the one the file gives the card (a drill-id comment, a guid), None when it gives
    none: drill.interop.stable_ids chooses one then."""

    id: str | None
    prompt: str
    answer: str
    line: int
    block: str | None = None
    topic: str | None = None
    from_drill: bool = False  # the id is drill's own, read back from a note drill exported
    siblings: str | None = None  # the cards of one cloze text share it (not shown on the same day)


IdWriter = Callable[[list[str]], "str | None"]


@dataclass
class ParsedSource:
    """A parse of a whole file. `errors` stop the import; `warnings` say what was skipped or
    changed while the rest imports. `deck_name` is the name the file gives itself (hashcards'
    front matter), the topic of cards that name none. `write_ids`, given every card's id in order,
    returns the file's text with the ids it lacks written in (None when it has them all) — only
    for `drill import --write-ids`."""

    cards: list[ParsedCard] = field(default_factory=list)
    errors: list[ContentError] = field(default_factory=list)
    warnings: list[ContentError] = field(default_factory=list)
    deck_name: str | None = None
    write_ids: IdWriter | None = None
