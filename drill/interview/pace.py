"""Where a pace of study leads by the interview day: the readiness it reaches (the forecast of an
interview drawn at random from everything it may ask, drill.interview.forecast), the minutes a day
it takes, and the slowest pace that reaches a target. Pure.

Every item is carried forward with drill's own memory model, the way the interview plan schedules
it (drill.schedule.plan) for someone who keeps up: reviewed and passed on each due day before the
interview, or once in the plan's final window when it would fall due after it; unseen items are
introduced in content order at the pace's rate per kind and then kept up the same way. On the days
the candidate does not study nothing moves, so an item's expected score is the mix, by the share of
days studied, of its score kept up and its score left as it is now. The simulation
(benchmarks/sim_readiness.py) checks these projections against candidates who really study.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from pydantic import Field, computed_field

from drill.interview.forecast import DEFAULT_RECORDS, Expectation, Forecast, Record, expectation, forecast
from drill.interview.plan import section_of
from drill.read_model import ReadModel
from drill.schedule import grading, memory
from drill.schedule.fsrs_model import DEFAULT, FSRSSettings
from drill.schedule.queue import KINDS
from drill.schedule.records import Card
from drill.schedule.state import ItemState
from drill.words import counted

GOOD_QUALITY = 4  # the SM-2 quality of a Good: the pass a kept-up review is taken to be
AGAIN_QUALITY = 2  # and of an Again: a review that fails
DEFAULT_SECONDS = {"card": 20.0, "pitch": 150.0, "estimate": 90.0, "coding": 900.0}  # a review, before any history
SEARCH_STEPS = 12  # bisections of the share of unseen content introduced


@dataclass(frozen=True)
class Pace:
    """How someone studies: new items a day per kind, the share of days they study, the seconds a
    review of each kind takes them, and the minutes they give a study day (None: what it takes)."""

    new_per_day: Mapping[str, float]
    study_share: float = 1.0
    seconds: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_SECONDS))
    minutes: float | None = None

    @property
    def new_total(self) -> float:
        return sum(self.new_per_day.values())


@dataclass
class _Kept:
    """One item carried forward: its state on the interview day and the reviews it took (expected,
    when its reviews may fail); and the states it may end in when one fails, each with its chance."""

    state: ItemState
    reviews: float = 0.0
    lapses: tuple[tuple[float, ItemState], ...] = ()

    def outcomes(self) -> list[tuple[float, ItemState]]:
        """Each state the item may end in, with its chance (together 1)."""
        return [(1 - sum(chance for chance, _ in self.lapses), self.state), *self.lapses]


@dataclass(frozen=True)
class Course:
    """What the projection works on: every active item in content order, the day, the interview
    day, the plan's final window, the memory model and the user's record."""

    items: Sequence[Card]
    today: date
    interview: date
    window: int
    scheduler: str
    records: Mapping[str, Record]
    asked: Mapping[str, int]  # questions per section, as the interview settings draw them
    pools: Mapping[str, frozenset[str]]  # item ids each section may ask
    fsrs_settings: FSRSSettings = DEFAULT
    carried: dict[tuple[str, date | None], _Kept] = field(default_factory=dict, compare=False, repr=False)

    @property
    def days_left(self) -> int:
        return max(0, (self.interview - self.today).days)

    def unseen(self, kind: str) -> list[Card]:
        return [card for card in self.items if card.kind == kind and card.state.is_new]


def _keep_up(state: ItemState, start: date, course: Course, chance: _Chance | None = None) -> _Kept:
    """`state` carried from `start` to the interview, passed on every review the plan gives it; with
    `chance` (the recall a review has, from the state before it and its day), each review may fail
    instead: the item then ends as the first failed review leaves it (Again, passed again the same
    day, then kept up), with the chance of that, and its reviews are counted as expected."""
    passed = _Kept(state)
    window_start = max(course.today, course.interview - timedelta(days=course.window))
    bring_forward_day = window_start + timedelta(days=(course.interview - window_start).days // 2)
    day = start
    reviewed: list[tuple[ItemState, date]] = []
    while True:
        due = grading.due_day(passed.state, course.scheduler)
        if due is None:
            break
        if due >= course.interview:
            last = passed.state.last_review_day
            if due == course.interview or last is None or last >= window_start:
                break
            due = bring_forward_day  # the plan brings it into its final window
        day = max(day, due)
        reviewed.append((passed.state, day))
        passed = _Kept(_graded(passed.state, GOOD_QUALITY, day, course), passed.reviews + 1)
        day += timedelta(days=1)
    if chance is None:
        return passed
    every_pass = 1.0  # the chance every review so far passed
    lapses, reviews = [], 0.0
    for number, (before, on) in enumerate(reviewed):
        failing = every_pass * (1 - chance(before, on))
        relearnt = _keep_up(
            _graded(_graded(before, AGAIN_QUALITY, on, course), GOOD_QUALITY, on, course),
            on + timedelta(days=1),
            course,
        )
        lapses.append((failing, relearnt.state))
        reviews += failing * (number + 2 + relearnt.reviews)  # those before, the failed one and its repeat, the rest
        every_pass -= failing
    return _Kept(passed.state, reviews + every_pass * passed.reviews, tuple(lapses))


_Chance = Callable[[ItemState, date], float]


def _graded(state: ItemState, quality: int, day: date, course: Course) -> ItemState:
    return grading.advance(state, quality, day, course.scheduler, None, course.fsrs_settings)


def _introductions(course: Course, pace: Pace) -> dict[str, date]:
    """The day each unseen item is introduced at the pace (those the pace reaches before the interview)."""
    days: dict[str, date] = {}
    for kind in KINDS:
        rate = pace.new_per_day.get(kind, 0.0)
        if rate <= 0:
            continue
        for number, card in enumerate(course.unseen(kind)):
            offset = math.ceil((number + 1) / rate - 1e-9) - 1  # by the end of day d, rate · (d + 1) are in
            if offset >= course.days_left:
                break
            days[card.item_id] = course.today + timedelta(days=offset)
    return days


def _carried(card: Card, course: Course, introduced: Mapping[str, date]) -> _Kept:
    """The item on the interview day, kept up from now or from the day it is introduced (remembered
    in the course: bisecting a pace carries the same items again)."""
    day = None if not card.state.is_new else introduced.get(card.item_id)
    key = (card.item_id, day)
    if key not in course.carried:
        chance = _recall_chance(card, course)
        if not card.state.is_new:
            kept = _keep_up(card.state, course.today, course, chance)
        elif day is None:
            kept = _Kept(card.state)
        else:
            kept = _keep_up(_graded(ItemState(), GOOD_QUALITY, day, course), day + timedelta(days=1), course, chance)
            kept.reviews += 1
        course.carried[key] = kept
    return course.carried[key]


def _recall_chance(card: Card, course: Course) -> _Chance | None:
    """The chance a review of `card` passes, from the state before it on its day: the memory model's
    recall recalibrated on the user's record of the card's interview section (None: it is in none)."""
    section = section_of(card)
    if section is None:
        return None
    model, record = memory.get(course.scheduler), course.records.get(section, DEFAULT_RECORDS[section])
    offset = record.offsets.get(card.item_id, 0.0)

    def chance(state: ItemState, day: date) -> float:
        recall = model.recall(state, day)
        return 1.0 if recall is None else record.recall(recall, offset)

    return chance


def _mixed(answers: Sequence[tuple[float, Expectation]]) -> Expectation:
    """One answer that is each of `answers` with its chance (together 1)."""
    mean = sum(chance * each.mean for chance, each in answers)
    square = sum(chance * (each.variance + each.mean**2) for chance, each in answers)
    doubt = sum(chance * each.doubt for chance, each in answers)
    return Expectation(answers[0][1].section, mean, max(0.0, square - mean * mean), doubt)


class Outlook(ReadModel):
    """Where one pace leads: new items a day, minutes a day, and the readiness on the interview day."""

    KEYS = ("new_per_day", "minutes_per_day", "reviews_per_day", "predicted")

    new_per_day: float
    minutes_per_day: float
    reviews_per_day: float  # reviews and first reviews a day, every kind together
    predicted: Forecast

    def said(self) -> str:
        """Says "1 new item and about 43 min a day"; a rate under one a day keeps its decimal ("0.4 new
        items"), and under a minute is said so, never as 0."""
        rate = self.new_per_day
        new = f"{rate:.1f} new items" if 0 < rate < 0.95 else counted(round(rate), "new item")
        minutes = "under a minute" if self.minutes_per_day < 0.5 else f"about {round(self.minutes_per_day)} min"
        return f"{new} and {minutes} a day"


def outlook(course: Course, pace: Pace) -> Outlook:
    """The readiness `pace` reaches by the interview, and what it takes a day. A pace that gives a
    study day fewer minutes than keeping up takes keeps up only that share of it: the rest of the
    time an item is left as it is, as on a day not studied."""
    model = memory.get(course.scheduler)
    introduced = _introductions(course, pace)
    asked: list[tuple[str, Card, _Kept]] = []
    seconds = 0.0
    reviews = 0.0
    for card in course.items:
        kept = _carried(card, course, introduced)
        reviews += kept.reviews
        seconds += kept.reviews * pace.seconds.get(card.kind, DEFAULT_SECONDS[card.kind])
        section = section_of(card)
        if section is not None and card.item_id in course.pools.get(section, ()):
            asked.append((section, card, kept))
    days = max(1, course.days_left)
    needed = seconds / days / 60  # minutes a study day
    kept_up = 1.0 if pace.minutes is None or needed <= pace.minutes else pace.minutes / needed
    share = pace.study_share * kept_up

    def answer(section: str, card: Card, kept: _Kept) -> Expectation:
        """The card's answer: kept up on `share` of the days, each way it may end, else left as it is."""
        return _mixed(
            [
                *(
                    (
                        share * chance,
                        expectation(section, replace(card, state=state), course.interview, model, course.records),
                    )
                    for chance, state in kept.outcomes()
                ),
                (1 - share, expectation(section, card, course.interview, model, course.records)),
            ]
        )

    return Outlook(
        new_per_day=pace.new_total,
        minutes_per_day=needed * share,
        reviews_per_day=reviews / days * share,
        predicted=forecast([answer(*each) for each in asked], course.asked),
    )


def finishing(course: Course, share: float, like: Pace) -> Pace:
    """The pace that introduces `share` of every kind's unseen items by the interview, studying
    every day at `like`'s speed."""
    days = max(1, course.days_left)
    return Pace({kind: share * len(course.unseen(kind)) / days for kind in KINDS}, 1.0, like.seconds)


class Reach(ReadModel):
    """The interview-day readiness at the current pace, and the pace that reaches the target."""

    KEYS = ("target", "at_current_pace", "to_reach_target", "reachable", "at_most", "over_daily_maximum")

    target: float
    current: Outlook = Field(serialization_alias="at_current_pace")
    needed: Outlook | None = Field(serialization_alias="to_reach_target")  # None: not reachable by pace
    at_most: Outlook  # the better of the current pace and everything introduced evenly, studied every day
    max_reviews_per_day: int = Field(exclude=True)

    @computed_field
    @property
    def reachable(self) -> bool:
        return self.needed is not None

    @computed_field
    @property
    def over_daily_maximum(self) -> bool:
        """Whether the pace the target needs asks more a day than the queue serves."""
        return self.needed is not None and self.needed.reviews_per_day > self.max_reviews_per_day

    def said(self) -> list[str]:
        """The readiness at the current pace and what the target takes, a line each (`drill plan`)."""
        current, needed, target = self.current, self.needed, f"{self.target:.0%}"
        lines = [f"Readiness on the interview day: {current.predicted.said()} at your pace ({current.said()})"]
        if current.predicted.score >= self.target or (needed and needed.new_per_day <= current.new_per_day):
            lines.append(f"{target} is within reach at your pace")
        elif needed is None:
            best = self.at_most
            how = "your pace" if best == current else "introducing everything, drills too, and keeping it up"
            lines.append(f"{target} is beyond reach: the most is {best.predicted.said()}, from {how} ({best.said()})")
        else:
            lines.append(f"{target} needs {needed.said()}")
        if self.over_daily_maximum and needed is not None:
            lines.append(
                f"that is {counted(math.ceil(needed.reviews_per_day), 'item')} a day, more than max_reviews_per_day = "
                f"{self.max_reviews_per_day} lets the queue serve"
            )
        return lines


def reach(course: Course, current: Pace, target: float, max_reviews_per_day: int) -> Reach:
    """The current pace's outlook, and the slowest pace (studying every day) that reaches `target`:
    the smallest share of the unseen content introduced, found by bisection."""
    now = outlook(course, current)
    spread = outlook(course, finishing(course, 1.0, current))  # everything, introduced evenly to the day
    at_most = max(now, spread, key=lambda each: each.predicted.score)  # introducing early can do better
    needed = now if now.predicted.score >= target else None
    if spread.predicted.score >= target:
        low, high = 0.0, 1.0
        for _ in range(SEARCH_STEPS):
            middle = (low + high) / 2
            low, high = (
                (low, middle)
                if outlook(course, finishing(course, middle, current)).predicted.score >= target
                else (middle, high)
            )
        needed = outlook(course, finishing(course, high, current))
    return Reach(
        target=target,
        current=now,
        needed=needed,
        at_most=at_most,
        max_reviews_per_day=max_reviews_per_day,
    )
