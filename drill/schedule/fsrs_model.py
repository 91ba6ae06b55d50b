"""FSRS as an alternative memory model: an item's FSRS state, rebuilt by replaying its reviews.

Pure: no SQL, no I/O. The `fsrs` package (py-fsrs 6) is imported on first use only, so
importing drill.schedule or drill.study never loads it. Its scheduler checks the parameters and
gives the forgetting curve; a review is its `review_card` arithmetic done on plain floats
(`_Formulas`, bit-identical, as tests/unit/schedule/test_replay_equivalence.py checks), since a replay does
millions of them.

How drill's reviews map onto FSRS (one choice, made here only):

- Default parameters unless the user fitted their own (`drill scheduler optimize`), desired
  retention from config.toml (default 0.9), both carried in `FSRSSettings`; no FSRS fuzz (the
  same history always gives the same days; drill spreads the load its own way,
  drill.schedule.load_balance).
- No learning or relearning steps. Every rating, Again included, gives a whole-day interval
  (at least one day) from the new stability, so drill's one counted review per study day is
  one FSRS review and a card never sits in FSRS's minute-scale (re)learning states. After a
  lapse the interval comes from the post-lapse stability (often 1–3 days, where SM-2 says 1).
  Drill's own in-session repeats of Again/Hard are logged but not counted, and are never fed
  to FSRS: they play the part the (re)learning steps would.
- Time is the study day. Each counted review is given to FSRS at noon UTC of its study day
  (`moment`), so the days FSRS sees elapse are exactly the study days between reviews: a
  review at 23:00 and the next at 08:00 the following day are one day apart, as drill counts
  them, not the same day (fsrs floors real elapsed time to whole days). The due day is the
  review's study day plus the interval.
- Buttons are ratings: 1 Again, 2 Hard, 3 Good, 4 Easy (graded estimates and coding drills
  count as the button their quality maps to).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import fsrs

DESIRED_RETENTION = 0.9
NOON = time(12, tzinfo=UTC)
_CARD_ID = 0  # one id for every card: fsrs.Card() without one sleeps 1 ms to make a fresh id


@dataclass(frozen=True, slots=True)
class FSRSSettings:
    """What FSRS schedules with: the recall to aim for, and the parameters (None: py-fsrs's defaults)."""

    desired_retention: float = DESIRED_RETENTION
    parameters: tuple[float, ...] | None = None

    @property
    def fitted(self) -> bool:
        return self.parameters is not None


DEFAULT = FSRSSettings()


@dataclass(frozen=True, slots=True)
class FSRSState:
    """What FSRS knows about one item after its counted reviews so far."""

    stability: float | None = None
    difficulty: float | None = None
    last_day: date | None = None
    due_day: date | None = None
    reviews: int = 0

    @property
    def is_new(self) -> bool:
        return self.last_day is None


def moment(day: date) -> datetime:
    """The instant a review on study day `day` is given to FSRS (noon UTC of that day)."""
    if isinstance(day, datetime):
        raise TypeError("FSRS works in study days: pass a date, not a datetime")
    return datetime.combine(day, NOON)


@lru_cache(maxsize=8)
def scheduler(settings: FSRSSettings = DEFAULT) -> fsrs.Scheduler:
    """The FSRS scheduler drill uses with `settings` (see the module docstring for the rest)."""
    import fsrs
    from fsrs.scheduler import DEFAULT_PARAMETERS

    parameters = DEFAULT_PARAMETERS if settings.parameters is None else settings.parameters
    return fsrs.Scheduler(
        parameters=parameters,
        desired_retention=settings.desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )


def _card(state: FSRSState) -> fsrs.Card:
    import fsrs

    if state.stability is None:
        return fsrs.Card(card_id=_CARD_ID, state=fsrs.State.Learning, due=moment(state.due_day or date(1970, 1, 1)))
    assert state.last_day is not None and state.due_day is not None
    return fsrs.Card(
        card_id=_CARD_ID,
        state=fsrs.State.Review,
        step=None,
        stability=state.stability,
        difficulty=state.difficulty,
        due=moment(state.due_day),
        last_review=moment(state.last_day),
    )


class _Formulas:
    """py-fsrs's `Scheduler.review_card` for the cards drill gives it (new or in review; no steps, no
    fuzz), as plain arithmetic: every float operation as py-fsrs does it and in its order, so the
    results are the same to the last bit, without a Card, a copy and a ReviewLog per review."""

    def __init__(self, settings: FSRSSettings) -> None:
        from fsrs.scheduler import MAX_DIFFICULTY, MIN_DIFFICULTY, STABILITY_MIN

        package = scheduler(settings)
        w = self.w = package.parameters
        self.decay = -w[20]
        self.factor = 0.9 ** (1 / self.decay) - 1
        self.interval_scale = (package.desired_retention ** (1 / self.decay)) - 1
        self.maximum_interval = package.maximum_interval
        self.min_stability, self.min_difficulty, self.max_difficulty = STABILITY_MIN, MIN_DIFFICULTY, MAX_DIFFICULTY
        self.easy_difficulty = w[4] - (math.e ** (w[5] * (4 - 1))) + 1  # the mean difficulty reverts to
        self.recall_base = math.e ** w[8]
        self.lapse_short_term = math.e ** (w[17] * w[18])
        # By button: initial stability and difficulty, same-day growth, difficulty step.
        buttons = (1, 2, 3, 4)
        self.initial_stability = {rating: max(w[rating - 1], STABILITY_MIN) for rating in buttons}
        self.initial_difficulty = {
            rating: self._clamp(w[4] - (math.e ** (w[5] * (rating - 1))) + 1) for rating in buttons
        }
        self.short_term = {rating: math.e ** (w[17] * (rating - 3 + w[18])) for rating in buttons}
        self.difficulty_step = {rating: -(w[6] * (rating - 3)) for rating in buttons}

    def _clamp(self, difficulty: float) -> float:
        return min(max(difficulty, self.min_difficulty), self.max_difficulty)

    def review(
        self, stability: float | None, difficulty: float | None, elapsed: int, button: int
    ) -> tuple[float, float, int]:
        """(stability, difficulty, interval in days) after `button` on a card last reviewed `elapsed`
        days before (new when `stability` is None)."""
        if button not in (1, 2, 3, 4):
            raise ValueError(f"a button is 1–4 (Again, Hard, Good, Easy), not {button!r}")
        w = self.w
        if stability is None:
            stability, difficulty = self.initial_stability[button], self.initial_difficulty[button]
        else:
            assert difficulty is not None
            if elapsed < 1:
                growth = self.short_term[button] * (stability ** -w[19])
                if button > 1:
                    growth = max(growth, 1.0)
                stability = stability * growth
            else:
                recall = (1 + self.factor * max(0, elapsed) / stability) ** self.decay
                if button == 1:
                    stability = min(
                        w[11]
                        * (difficulty ** -w[12])
                        * (((stability + 1) ** (w[13])) - 1)
                        * (math.e ** ((1 - recall) * w[14])),
                        stability / self.lapse_short_term,
                    )
                else:
                    stability = stability * (
                        1
                        + self.recall_base
                        * (11 - difficulty)
                        * (stability ** -w[9])
                        * ((math.e ** ((1 - recall) * w[10])) - 1)
                        * (w[15] if button == 2 else 1)
                        * (w[16] if button == 4 else 1)
                    )
            stability = max(stability, self.min_stability)
            damped = difficulty + (10.0 - difficulty) * self.difficulty_step[button] / 9.0
            difficulty = self._clamp(w[7] * self.easy_difficulty + (1 - w[7]) * damped)
        interval = round((stability / self.factor) * self.interval_scale)
        return stability, difficulty, min(max(interval, 1), self.maximum_interval)


@lru_cache(maxsize=8)
def _formulas(settings: FSRSSettings = DEFAULT) -> _Formulas:
    """FSRS's review arithmetic with `settings`."""
    return _Formulas(settings)


def step(
    stability: float | None,
    difficulty: float | None,
    last_day: date | None,
    day: date,
    button: int,
    settings: FSRSSettings = DEFAULT,
) -> tuple[float, float, date]:
    """(stability, difficulty, due day) after pressing `button` (1–4) on study day `day`, from the memory
    left by the review on `last_day` (new when `stability` is None)."""
    elapsed = 0 if stability is None or last_day is None else (day - last_day).days
    stability, difficulty, interval = _formulas(settings).review(stability, difficulty, elapsed, button)
    return stability, difficulty, day + timedelta(days=interval)


def review(state: FSRSState, button: int, day: date, settings: FSRSSettings = DEFAULT) -> FSRSState:
    """The state after pressing `button` (1–4) on study day `day`.

    A second review on the same study day changes nothing, as with SM-2 (drill logs such
    repeats but does not count them).
    """
    if isinstance(day, datetime):
        raise TypeError("FSRS works in study days: pass a date, not a datetime")
    if state.last_day == day:
        return state
    stability, difficulty, due_day = step(state.stability, state.difficulty, state.last_day, day, button, settings)
    return FSRSState(stability, difficulty, day, due_day, state.reviews + 1)


def replay(reviews: Iterable[tuple[date, int]], settings: FSRSSettings = DEFAULT) -> FSRSState:
    """The state after an item's counted reviews, given as (study day, button), oldest first."""
    state = FSRSState()
    for day, button in reviews:
        state = review(state, button, day, settings)
    return state


def next_due_day(state: FSRSState, button: int, day: date, settings: FSRSSettings = DEFAULT) -> date:
    """The day the item is next due if `button` is pressed on study day `day`."""
    due = review(state, button, day, settings).due_day
    assert due is not None
    return due


def next_interval(state: FSRSState, button: int, day: date, settings: FSRSSettings = DEFAULT) -> int:
    """Days until the next review if `button` is pressed on study day `day` (for button labels)."""
    return (next_due_day(state, button, day, settings) - day).days


def forgetting_curve(settings: FSRSSettings = DEFAULT) -> tuple[float, float]:
    """(factor, decay) of FSRS's curve R(t) = (1 + factor · t / S) ** -decay, for SQL to evaluate."""
    decay = float(scheduler(settings).parameters[20])
    return 0.9 ** (-1 / decay) - 1, decay


def retrievability(state: FSRSState, day: date, settings: FSRSSettings = DEFAULT) -> float:
    """FSRS's predicted probability of recall on study day `day` (0 for an item never reviewed).

    `day` is a study day (a date); days before the last review count as no time elapsed.
    """
    if state.stability is None:
        return 0.0
    return float(scheduler(settings).get_card_retrievability(_card(state), moment(day)))
