"""Which items a mock interview asks, in the order of a real round: grill questions, a pitch,
estimation problems, a coding drill. Pure: the caller hands in the cards and a seeded rng."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from pydantic import Field, InstanceOf, computed_field
from pydantic.dataclasses import dataclass as read_model

from drill.estimate.draw import Problem
from drill.interview.forecast import Forecast
from drill.interview.settings import SECTIONS, InterviewSettings
from drill.schedule.records import Card

GRILL_PREFIX = "grill-"


def section_of(card: Card) -> str | None:
    """The interview section a card can be asked in, or None."""
    if card.kind == "card" and card.item_id.startswith(GRILL_PREFIX):
        return "grill"
    if card.kind in ("pitch", "estimate", "coding"):
        return card.kind
    return None


@dataclass(frozen=True)
class Step:
    """One question of the interview: its section, its card, and for an estimate its fresh numbers."""

    section: str
    card: Card
    problem: Problem | None = None

    @property
    def item_id(self) -> str:
        return self.card.item_id


@read_model(frozen=True)
class InterviewPlan:
    """What one interview will ask, drawn when it starts; its JSON is what the store keeps in
    mock_interview.sections (the settings, the forecast, the items drawn per section, and which ones)."""

    settings: InterviewSettings
    steps: tuple[InstanceOf[Step], ...] = Field(exclude=True)
    interview_id: int | None = Field(default=None, exclude=True)
    forecast: Forecast | None = None  # what drill predicted it would score, made as it was drawn

    @computed_field
    @property
    def planned(self) -> dict[str, int]:
        """Items per section actually drawn (fewer than asked when content runs short)."""
        counts = dict.fromkeys(SECTIONS, 0)
        for step in self.steps:
            counts[step.section] += 1
        return counts

    @computed_field
    @property
    def items(self) -> list[tuple[str, str]]:
        """(section, item id) of every step, in asking order."""
        return [(step.section, step.item_id) for step in self.steps]


def _priority(card: Card, today: date) -> int:
    """Due items first (the interview is their review), then unseen ones, then the rest."""
    due = card.state.due_day
    if card.state.last_review_day is None:
        return 1
    return 0 if due is not None and due <= today else 2


def _pick(cards: list[Card], count: int, rng: random.Random, today: date, spread: str) -> list[Card]:
    """`count` cards: shuffled, due first, and no two sharing `spread` (block or topic) while others are left."""
    pool = cards[:]
    rng.shuffle(pool)
    pool.sort(key=lambda card: _priority(card, today))
    chosen: dict[str, Card] = {}
    seen: set[str] = set()
    for card in pool:
        if len(chosen) == count:
            break
        if getattr(card, spread) not in seen:
            chosen[card.item_id] = card
            seen.add(getattr(card, spread))
    for card in pool:  # not enough distinct ones: fill up in the same order
        if len(chosen) == count:
            break
        chosen.setdefault(card.item_id, card)
    return list(chosen.values())


def section_pools(cards: list[Card], settings: InterviewSettings) -> dict[str, list[Card]]:
    """The cards each section may ask, in their order. The pitch comes from the rung the settings
    name (any rung when none of that length exists)."""
    by_section: dict[str, list[Card]] = {section: [] for section in SECTIONS}
    for card in cards:
        section = section_of(card)
        if section is not None:
            by_section[section].append(card)
    rung = [card for card in by_section["pitch"] if card.target_seconds == settings.pitch_seconds]
    by_section["pitch"] = rung or by_section["pitch"]
    return by_section


def draw(cards: list[Card], settings: InterviewSettings, rng: random.Random, today: date) -> list[tuple[str, Card]]:
    """The interview's (section, card) pairs in asking order."""
    by_section = section_pools(cards, settings)
    wanted = settings.wanted()
    chosen: list[tuple[str, Card]] = []
    for section in SECTIONS:
        spread = "topic" if section in ("grill", "pitch") else "block"
        chosen += [(section, card) for card in _pick(by_section[section], wanted[section], rng, today, spread)]
    return chosen
