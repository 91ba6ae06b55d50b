"""Custom sessions: today's queue narrowed by block, topic and kind, or a cram, review-ahead or
weakest-items session that shows items before they are due. Pure: the store gives the pool."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta

from drill.schedule.records import Card, Grade
from drill.words import counted

SESSION_KINDS = ("card", "pitch", "estimate")  # coding drills are practised from their own screen


@dataclass(frozen=True)
class CustomSession:
    """What a custom session draws from; every field narrows or widens the pool, all combinable."""

    blocks: tuple[str, ...] = ()  # none: every block
    topics: tuple[str, ...] = ()  # case-insensitive parts of a topic; none: every topic
    kinds: tuple[str, ...] = ()  # none: every kind reviewed in a session (card, pitch, estimate)
    weakest: int | None = None  # only the N weakest items
    ahead: int | None = None  # items due in the next N days (1 to drill.days.MAX_AHEAD_DAYS), before they are due
    cram: bool = False  # every matching item, due or not
    reschedule: bool = False  # let an early session's grades move schedules

    @property
    def early(self) -> bool:
        """Whether the session shows items before they are due: its grades are logged as cram."""
        return self.cram or self.ahead is not None or self.weakest is not None

    @property
    def moves_schedules(self) -> bool:
        return self.reschedule or not self.early

    def matches(self, card: Card) -> bool:
        topic = card.topic.casefold()
        return (
            (not self.blocks or card.block in self.blocks)
            and (not self.kinds or card.kind in self.kinds)
            and (not self.topics or any(part.casefold() in topic for part in self.topics))
        )

    def applied_to(self, grade: Grade) -> Grade:
        """A grade as this session logs it: an early session's as cram, keeping the schedule unless
        it reschedules."""
        if not self.early:
            return grade
        return replace(grade, cram=True) if self.reschedule else grade.kept_schedule()

    def describe(self) -> str:
        """The session in a few words, for the review screen's title."""
        parts = [
            "cram"
            if self.cram
            else f"due in the next {counted(self.ahead, 'day')}"
            if self.ahead is not None
            else "weakest"
            if self.weakest is not None
            else "today's queue"
        ]
        if self.weakest is not None:
            parts.append(f"the {counted(self.weakest, 'weakest item')}")
        for label, values in (("blocks", self.blocks), ("topics", self.topics), ("kinds", self.kinds)):
            if values:
                parts.append(f"{label} {', '.join(values)}")
        if self.early:
            parts.append("schedules move" if self.reschedule else "schedules kept")
        return " · ".join(parts)


def weakest_first(
    cards: Sequence[Card], recall: Mapping[str, float], lapses: Mapping[str, int], scores: Mapping[str, float]
) -> list[Card]:
    """Cards weakest first: lowest predicted recall, then most lapses, then lowest mean estimation
    score; items with no recall figure (never reviewed) last."""

    def weakness(card: Card) -> tuple[float, int, float]:
        return (recall.get(card.item_id, 2.0), -lapses.get(card.item_id, 0), scores.get(card.item_id, 2.0))

    return sorted(cards, key=weakness)


def choose(
    spec: CustomSession,
    pool: Sequence[Card],
    today: date,
    recall: Mapping[str, float],
    lapses: Mapping[str, int],
    scores: Mapping[str, float],
) -> list[Card]:
    """The session's cards from the store's `pool` (every active item reviewed in sessions): those
    the spec matches, due ones first (most overdue first) or weakest first, cut to `weakest`."""
    chosen = [card for card in pool if spec.matches(card)]
    if spec.ahead is not None:
        horizon = today + timedelta(days=spec.ahead)
        chosen = [card for card in chosen if card.state.due_day is not None and today < card.state.due_day <= horizon]
    elif not spec.cram and spec.weakest is not None:
        chosen = [card for card in chosen if not card.state.is_new]
    if spec.weakest is not None:
        return weakest_first(chosen, recall, lapses, scores)[: spec.weakest]
    return sorted(chosen, key=lambda card: (card.state.due_day or date.max, card.state.is_new))
