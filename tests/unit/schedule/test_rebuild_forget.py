"""A forget in an item's history: the replay starts again from a new item's state there, so what
follows it is replayed as it would be for an item never reviewed, and a history that ends in a
forget leaves the item new."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drill.schedule.grading import ItemState
from drill.schedule.rebuild import FORGET, replay, replay_grades

START = date(2026, 3, 1)


def grades(days_and_qualities: list[tuple[int, int]], first_id: int = 1) -> list[tuple[int, date, int]]:
    return [(first_id + n, START + timedelta(days=day), quality) for n, (day, quality) in enumerate(days_and_qualities)]


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_grades_after_a_forget_replay_as_for_a_new_item(scheduler) -> None:
    before = grades([(0, 4), (1, 5), (7, 2)])
    after = grades([(20, 4), (21, 5)], first_id=10)
    with_forget = list(replay_grades([*before, FORGET, *after], scheduler))
    fresh = list(replay_grades(after, scheduler))
    assert [step.review_id for step in with_forget] == [1, 2, 3, 10, 11]  # a step for each grade, none for the forget
    assert with_forget[3:] == fresh
    assert with_forget[3].before == ItemState() and with_forget[2].after != ItemState()


def test_a_grade_on_the_day_of_the_forget_counts_again() -> None:
    """A second grade on one study day moves nothing, unless a forget came between."""
    same_day = grades([(0, 4), (0, 5)])
    assert [step.counted for step in replay_grades(same_day, "sm2")] == [True, False]
    assert [step.counted for step in replay_grades([same_day[0], FORGET, same_day[1]], "sm2")] == [True, True]


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_the_state_a_history_leaves(scheduler) -> None:
    history = grades([(0, 4), (3, 5)])
    steps, state = replay(history, scheduler)
    assert state == steps[-1].after and state.last_review_day == START + timedelta(days=3)
    assert replay([*history, FORGET], scheduler) == (steps, ItemState())  # ends in a forget: new
    assert replay([], scheduler) == ([], ItemState())
    assert replay([FORGET], scheduler) == ([], ItemState())


@settings(max_examples=60, deadline=None)
@given(
    history=st.lists(
        st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 5))),  # None: a forget; else (gap, quality)
        max_size=25,
    ),
    scheduler=st.sampled_from(["sm2", "fsrs"]),
)
def test_a_history_replays_as_its_part_after_the_last_forget(history, scheduler) -> None:
    day, entries = 0, []
    for n, entry in enumerate(history):
        if entry is None:
            entries.append(FORGET)
        else:
            day += entry[0]
            entries.append((n, START + timedelta(days=day), entry[1]))
    last_forget = max((n for n, entry in enumerate(entries) if entry is FORGET), default=-1)
    tail = entries[last_forget + 1 :]
    steps, state = replay(entries, scheduler)
    tail_steps, tail_state = replay(tail, scheduler)
    assert state == tail_state
    assert steps[len(steps) - len(tail_steps) :] == tail_steps
