"""drill's FSRS replay gives exactly what the fsrs package gives for the same ratings and times."""

from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.schedule import fsrs_model
from drill.schedule.fsrs_model import FSRSState, moment, next_due_day, next_interval, replay, retrievability

START = date(2026, 1, 5)


def package_scheduler() -> fsrs.Scheduler:
    """Built here, independently of drill: default parameters, no steps, no fuzz."""
    return fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


def package_replay(reviews: list[tuple[date, int]]) -> fsrs.Card:
    scheduler, card = package_scheduler(), fsrs.Card(card_id=1)
    for day, button in reviews:
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        card, _ = scheduler.review_card(card, fsrs.Rating(button), noon)
    return card


def days_from(gaps: list[int], buttons: list[int]) -> list[tuple[date, int]]:
    day, out = START, []
    for gap, button in zip(gaps, buttons, strict=True):
        day += timedelta(days=gap)
        out.append((day, button))
    return out


def assert_same(state: FSRSState, card: fsrs.Card, reviews: list[tuple[date, int]]) -> None:
    assert state.stability == pytest.approx(card.stability, rel=1e-12)
    assert state.difficulty == pytest.approx(card.difficulty, rel=1e-12)
    assert moment(state.due_day) == card.due
    assert moment(state.last_day) == card.last_review
    assert state.reviews == len(reviews)


HISTORIES = {
    "all good": days_from([0, 2, 5, 12, 30], [3, 3, 3, 3, 3]),
    "a lapse": days_from([0, 1, 6, 20, 1, 3], [3, 3, 3, 1, 3, 3]),
    "easy then hard": days_from([0, 8, 25, 40], [4, 4, 2, 2]),
    "again first": days_from([0, 1, 1, 2], [1, 1, 2, 3]),
    "overdue": days_from([0, 300], [3, 3]),
    "early": days_from([0, 3, 1], [3, 4, 3]),
}


@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_replay_matches_the_package(name: str) -> None:
    reviews = HISTORIES[name]
    assert_same(replay(reviews), package_replay(reviews), reviews)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 120), st.integers(1, 4)), min_size=1, max_size=12))
def test_replay_matches_the_package_for_any_history(steps: list[tuple[int, int]]) -> None:
    reviews = days_from([gap for gap, _ in steps], [button for _, button in steps])
    card = package_replay(reviews)
    state = replay(reviews)
    assert_same(state, card, reviews)
    later = state.last_day + timedelta(days=steps[0][0])
    expected = package_scheduler().get_card_retrievability(card, moment(later))
    assert retrievability(state, later) == pytest.approx(expected, rel=1e-12)


def test_first_review_intervals_follow_the_initial_stabilities() -> None:
    # Default w0..w3 = 0.212, 1.2931, 2.3065, 8.2956 days, rounded, at least one day.
    assert [next_interval(FSRSState(), button, START) for button in (1, 2, 3, 4)] == [1, 1, 2, 8]
    assert next_due_day(FSRSState(), 3, START) == START + timedelta(days=2)


def test_a_lapse_stays_in_whole_days_with_no_relearning_steps() -> None:
    state = replay(days_from([0, 3, 8], [3, 3, 3]))
    lapse_day = state.last_day + timedelta(days=20)
    after = fsrs_model.review(state, 1, lapse_day)
    card = package_replay(days_from([0, 3, 8, 20], [3, 3, 3, 1]))
    assert card.state == fsrs.State.Review  # never Relearning: no minute-scale steps
    assert after.stability < state.stability
    assert after.due_day == card.due.date() and (after.due_day - lapse_day).days >= 1


def test_retrievability() -> None:
    assert retrievability(FSRSState(), START) == 0.0
    state = replay([(START, 3)])
    assert retrievability(state, START) == 1.0
    assert retrievability(state, START - timedelta(days=3)) == 1.0
    curve = [retrievability(state, START + timedelta(days=n)) for n in range(1, 30)]
    assert curve == sorted(curve, reverse=True)
    # FSRS-6's forgetting curve, R(t) = (1 + (0.9^(-1/w20) - 1) t / S)^(-w20), is 0.9 at t = S.
    decay = fsrs.scheduler.DEFAULT_PARAMETERS[20]
    for t in (1, 2, 7):
        expected = (1 + (0.9 ** (-1 / decay) - 1) * t / state.stability) ** -decay
        assert retrievability(state, START + timedelta(days=t)) == pytest.approx(expected)
    long = replay([(START, 4)])
    assert retrievability(long, START + timedelta(days=8)) == pytest.approx(0.9, abs=0.005)  # S ≈ 8.3 days


def test_a_second_review_on_the_same_day_changes_nothing() -> None:
    state = replay([(START, 3)])
    assert fsrs_model.review(state, 1, START) is state
    assert replay([(START, 3), (START, 1)]) == state


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        fsrs_model.review(FSRSState(), 5, START)
    with pytest.raises(TypeError):
        retrievability(replay([(START, 3)]), datetime(2026, 1, 9, tzinfo=UTC))


def test_the_scheduler_is_the_documented_one() -> None:
    scheduler = fsrs_model.scheduler()
    assert scheduler.parameters == fsrs.scheduler.DEFAULT_PARAMETERS
    assert scheduler.learning_steps == () and scheduler.relearning_steps == ()
    assert scheduler.enable_fuzzing is False and scheduler.desired_retention == 0.9
