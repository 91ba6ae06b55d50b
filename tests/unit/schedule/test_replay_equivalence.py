"""The schedule arithmetic gives what the published algorithms give, step by step: SM-2 in decimal
arithmetic, FSRS through py-fsrs's own `Scheduler.review_card`, and a grade as the state built
from the two with `dataclasses.replace`, over random histories (same-day repeats, long gaps, study
days that run backwards after a flight, every button and quality, both schedulers)."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import ROUND_CEILING, Decimal

import fsrs
import pytest
from fsrs.scheduler import DEFAULT_PARAMETERS, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.schedule import fsrs_model, grading, sm2
from drill.schedule.fsrs_model import FSRSSettings, FSRSState
from drill.schedule.rebuild import replay_grades
from drill.schedule.state import ItemState

START = date(2023, 3, 1)
REL = 1e-12


def published_sm2(repetitions: int, interval: int, easiness: float, quality: int) -> tuple[int, int, float]:
    """SM-2 as drill computed it before: Decimal easiness from the float's text, quantised to 0.01."""
    ef = Decimal(str(easiness))
    if quality >= 3:
        if repetitions == 0:
            interval = 1
        elif repetitions == 1:
            interval = 6
        else:
            interval = min(sm2.MAX_INTERVAL, int((Decimal(interval) * ef).to_integral_value(ROUND_CEILING)))
        repetitions += 1
    else:
        repetitions, interval = 0, 1
    miss = Decimal(5 - quality)
    ef = max(Decimal("1.3"), ef + Decimal("0.1") - miss * (Decimal("0.08") + miss * Decimal("0.02")))
    return repetitions, interval, float(ef.quantize(Decimal("0.01")))


def noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12, tzinfo=UTC)


def package_fsrs(state: FSRSState, button: int, day: date, settings: FSRSSettings) -> FSRSState:
    """One review through py-fsrs's Card and review_card, as drill gave it its reviews before."""
    parameters = DEFAULT_PARAMETERS if settings.parameters is None else settings.parameters
    scheduler = fsrs.Scheduler(
        parameters=parameters,
        desired_retention=settings.desired_retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
    )
    if state.stability is None:
        card = fsrs.Card(card_id=0, state=fsrs.State.Learning, due=noon(date(1970, 1, 1)))
    else:
        card = fsrs.Card(
            card_id=0,
            state=fsrs.State.Review,
            step=None,
            stability=state.stability,
            difficulty=state.difficulty,
            due=noon(state.due_day),
            last_review=noon(state.last_day),
        )
    card, _ = scheduler.review_card(card, fsrs.Rating(button), noon(day))
    return FSRSState(card.stability, card.difficulty, day, day + (card.due - card.last_review), state.reviews + 1)


def published_advance(state: ItemState, quality: int, today: date, scheduler: str) -> ItemState:
    """grading.advance as it was: SM-2 in Decimal, FSRS through py-fsrs, the state by dataclasses.replace."""
    button = grading.button_for_quality(quality)
    if state.last_review_day != today:
        repetitions, interval, easiness = published_sm2(state.repetitions, state.interval, state.easiness, quality)
        after = replace(
            state,
            repetitions=repetitions,
            interval=interval,
            easiness=easiness,
            due_day=today + timedelta(days=interval),
            last_review_day=today,
        )
        memory = (
            FSRSState()
            if state.fsrs_stability is None
            else FSRSState(state.fsrs_stability, state.fsrs_difficulty, state.last_review_day, state.fsrs_due_day)
        )
        moved = package_fsrs(memory, button, today, fsrs_model.DEFAULT)
        state = replace(
            after, fsrs_stability=moved.stability, fsrs_difficulty=moved.difficulty, fsrs_due_day=moved.due_day
        )
    if button in (1, 2):
        return replace(state, due_day=today)
    return replace(state, due_day=grading.due_day(state, scheduler))


def assert_same_state(fast: ItemState, published: ItemState) -> None:
    assert (fast.repetitions, fast.interval, fast.easiness, fast.due_day, fast.last_review_day, fast.fsrs_due_day) == (
        published.repetitions,
        published.interval,
        published.easiness,
        published.due_day,
        published.last_review_day,
        published.fsrs_due_day,
    )
    for mine, theirs in (
        (fast.fsrs_stability, published.fsrs_stability),
        (fast.fsrs_difficulty, published.fsrs_difficulty),
    ):
        assert (mine is None) == (theirs is None)
        if mine is not None:
            assert mine == pytest.approx(theirs, rel=REL, abs=0)


# A day's gap before each review: mostly same-day repeats and short gaps, some long, a few backwards.
GAPS = st.one_of(st.just(0), st.integers(1, 10), st.integers(11, 400), st.integers(-3, -1), st.integers(401, 20_000))
HISTORIES = st.lists(st.tuples(GAPS, st.integers(0, 5)), min_size=1, max_size=60)


@settings(max_examples=400, deadline=None)
@given(HISTORIES, st.sampled_from(["sm2", "fsrs"]))
def test_a_replay_is_the_published_arithmetic_review_by_review(history: list[tuple[int, int]], scheduler: str) -> None:
    grades, day = [], START
    for review_id, (gap, quality) in enumerate(history):
        day += timedelta(days=gap)
        grades.append((review_id, day, quality))
    published = ItemState()
    for step, (review_id, day, quality) in zip(replay_grades(grades, scheduler), grades, strict=True):
        assert step.review_id == review_id
        assert step.counted == (published.last_review_day != day)
        assert_same_state(step.before, published)
        published = published_advance(published, quality, day, scheduler)
        assert_same_state(step.after, published)


@st.composite
def fsrs_settings(draw: st.DrawFn) -> FSRSSettings:
    """Default parameters or fitted ones (anywhere in py-fsrs's bounds), and a desired retention."""
    parameters = None
    if draw(st.booleans()):
        parameters = tuple(
            draw(st.floats(low, high))
            for low, high in zip(LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS, strict=True)
        )
    return FSRSSettings(draw(st.floats(0.7, 0.97)), parameters)


@settings(max_examples=300, deadline=None)
@given(fsrs_settings(), st.lists(st.tuples(GAPS, st.integers(1, 4)), min_size=1, max_size=40))
def test_fsrs_memory_is_py_fsrs_review_card_to_the_last_bit(
    chosen: FSRSSettings, history: list[tuple[int, int]]
) -> None:
    mine = theirs = FSRSState()
    day = START
    for gap, button in history:
        day += timedelta(days=gap)
        if day == mine.last_day:
            continue  # a same-day repeat is not a review for FSRS
        mine = fsrs_model.review(mine, button, day, chosen)
        theirs = package_fsrs(theirs, button, day, chosen)
        assert (mine.stability, mine.difficulty, mine.due_day) == (theirs.stability, theirs.difficulty, theirs.due_day)


@settings(max_examples=500, deadline=None)
@given(
    st.integers(0, 8),
    st.integers(0, 40_000),
    st.one_of(
        st.integers(100, 600).map(lambda hundredths: hundredths / 100),  # the grid SM-2 keeps easiness on
        st.floats(0.5, 6, allow_nan=False),  # anything else a store might hold, computed as its decimal text
    ),
    st.integers(0, 5),
)
def test_sm2_in_hundredths_is_sm2_in_decimal(repetitions: int, interval: int, easiness: float, quality: int) -> None:
    assert sm2.step(repetitions, interval, easiness, quality) == published_sm2(repetitions, interval, easiness, quality)


def test_out_of_range_inputs_are_refused_as_before() -> None:
    with pytest.raises(ValueError):
        fsrs_model.review(FSRSState(), 5, START)
    with pytest.raises(ValueError):
        sm2.step(0, 0, 2.5, 6)
    with pytest.raises(TypeError):
        fsrs_model.review(FSRSState(), 3, datetime(2026, 1, 1, tzinfo=UTC))
    assert math.isclose(fsrs_model.review(FSRSState(), 3, START).stability, DEFAULT_PARAMETERS[2])
