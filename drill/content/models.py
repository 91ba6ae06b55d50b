"""The content item as read from a deck file."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StringConstraints,
    model_validator,
)

from drill.content.vocabulary import Block


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


CARD_CHARACTERS = 65_536  # the longest prompt or answer a card may have (64 Ki characters): the screen stays quick
Text = Annotated[str, StringConstraints(max_length=CARD_CHARACTERS), AfterValidator(_not_blank)]
ItemId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=80)]


class ContentItem(BaseModel):
    """Anything the user practises, as the store keeps it: a card, a pitch, a problem family, a drill."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    kind: str
    block: Block
    topic: Text
    prompt: Text
    answer: Text
    source: Text
    points: list[Text] = []
    target_seconds: int | None = None
    errata: Text | None = None
    siblings: Text | None = None  # items sharing this key are not shown the same day (drill.schedule.siblings)

    def content_hash(self) -> str:
        """A fingerprint of everything the user reads, to notice edits (an item without errata
        keeps the fingerprint it had before errata existed; the sibling group is not read, and
        sync compares it on its own)."""
        fields = self.model_dump(exclude={"id", "siblings"} if self.errata else {"id", "errata", "siblings"})
        text = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class DeckItem(ContentItem):
    """One card or pitch, exactly as a deck file states it."""

    id: ItemId
    kind: Literal["card", "pitch"]
    target_seconds: Literal[30, 120, 300] | None = None

    @model_validator(mode="after")
    def _pitch_has_target(self) -> DeckItem:
        if self.kind == "pitch" and self.target_seconds is None:
            raise ValueError("a pitch needs target_seconds (30, 120 or 300)")
        if self.kind == "card" and self.target_seconds is not None:
            raise ValueError("target_seconds is only for pitches")
        return self


class LoadedItem(BaseModel):
    """A valid item with where it came from."""

    model_config = ConfigDict(frozen=True)

    item: ContentItem
    deck: str
    position: int
