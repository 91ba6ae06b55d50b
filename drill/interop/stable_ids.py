"""Ids for imported cards whose file gives them none, kept across re-imports without writing
into the file.

drill never edits a user's deck to remember its cards: the user deck it fills
(`imported-<name>.toml`) is its record of the file, holding every card's id, text and place
from the last import. A card of the file gets, in this order:

1. the id the file gives it (a `<!-- drill-id -->` comment, a guid column, a drill note's Id);
2. the id of the recorded card with the same question;
3. else the id of the recorded card with the same answer (the question was edited);
4. else the id of the recorded card in the same place: between the same two cards already
   matched, the n-th unmatched card there (both sides edited where it stands);
5. else a new id, `<prefix>-` and the first 10 hex digits of the SHA-256 of the deck's name
   and the question (of the name, the question and a counter when that id is taken).

A recorded card that no card matches keeps its id reserved: it is retired with its reviews,
never handed to a new card. Each rule runs over the whole file before the next, so an edited
card never takes the id of a card that is still there unchanged.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict, deque
from collections.abc import Sequence

from drill.content.models import ContentItem
from drill.interop.cards import ParsedCard

Gap = tuple[str | None, str | None]  # the matched ids before and after a place in a sequence


def assign_ids(
    cards: Sequence[ParsedCard], recorded: Sequence[ContentItem], deck: str, prefix: str, taken: set[str]
) -> list[str]:
    """The id of each card, in order: `recorded` is the deck's cards from the last import (in
    file order), `taken` the ids other decks use."""
    ids: list[str | None] = [card.id for card in cards]
    for side in ("prompt", "answer"):
        _match_text(cards, recorded, ids, side)
    _match_places(recorded, ids)
    reserved = taken | {item.id for item in recorded} | {item_id for item_id in ids if item_id}
    assigned = []
    for card, item_id in zip(cards, ids, strict=True):
        if item_id is None:
            item_id = _new_id(prefix, deck, card.prompt, reserved)
            reserved.add(item_id)
        assigned.append(item_id)
    return assigned


def _match_text(cards: Sequence[ParsedCard], recorded: Sequence[ContentItem], ids: list[str | None], side: str) -> None:
    """Give each card without an id the id of an unmatched recorded card with the same `side`."""
    used = set(ids)
    by_text: defaultdict[str, deque[str]] = defaultdict(deque)
    for item in recorded:
        if item.id not in used:
            by_text[getattr(item, side)].append(item.id)
    for index, card in enumerate(cards):
        waiting = by_text.get(getattr(card, side))
        if ids[index] is None and waiting:
            ids[index] = waiting.popleft()


def _gaps(sequence: Sequence[str | None], matched: set[str]) -> list[Gap | None]:
    """For each entry not in `matched`, the matched entries around it; None for matched ones."""
    gaps: list[Gap | None] = []
    before: str | None = None
    for entry in sequence:
        if entry is not None and entry in matched:
            before = entry
            gaps.append(None)
        else:
            gaps.append((before, None))
    after: str | None = None
    for index in range(len(sequence) - 1, -1, -1):
        gap = gaps[index]
        if gap is None:
            after = sequence[index]
        else:
            gaps[index] = (gap[0], after)
    return gaps


def _match_places(recorded: Sequence[ContentItem], ids: list[str | None]) -> None:
    """Give each card still without an id the id of the unmatched recorded card in its place."""
    matched = {item_id for item_id in ids if item_id is not None}
    recorded_ids = [item.id for item in recorded]
    free: defaultdict[Gap, deque[str]] = defaultdict(deque)
    for item_id, gap in zip(recorded_ids, _gaps(recorded_ids, matched), strict=True):
        if gap is not None:
            free[gap].append(item_id)
    for index, gap in enumerate(_gaps(ids, matched)):
        if gap is not None and free[gap]:
            ids[index] = free[gap].popleft()


def _new_id(prefix: str, deck: str, question: str, reserved: set[str]) -> str:
    count = 0
    while True:
        seed = f"{deck}\n{question}" + (f"\n{count}" if count else "")
        item_id = f"{prefix}-{hashlib.sha256(seed.encode()).hexdigest()[:10]}"
        if item_id not in reserved:
            return item_id
        count += 1
