"""SM-2 exactly as published."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drill.schedule.sm2 import BUTTON_QUALITY, MAX_INTERVAL, SM2State, next_interval, review


def intervals(quality: int, count: int) -> list[int]:
    state, out = SM2State(), []
    for _ in range(count):
        state = review(state, quality)
        out.append(state.interval)
    return out


@pytest.mark.parametrize(
    "quality, expected",
    [
        (5, [1, 6, 17, 48, 140]),
        (4, [1, 6, 15, 38, 95]),
        (3, [1, 6, 14, 30, 59, 107, 178, 271]),
    ],
)
def test_published_sequences(quality: int, expected: list[int]) -> None:
    assert intervals(quality, len(expected)) == expected


def test_easiness_updates_exactly_to_two_decimals() -> None:
    state = SM2State()
    for expected in (2.36, 2.22, 2.08, 1.94, 1.8, 1.66, 1.52, 1.38, 1.3, 1.3):
        state = review(state, 3)
        assert state.easiness == expected


def test_failure_resets_repetitions_and_interval_but_lowers_easiness() -> None:
    state = review(review(review(SM2State(), 5), 5), 5)
    failed = review(state, 2)
    assert (failed.repetitions, failed.interval) == (0, 1)
    assert failed.easiness == pytest.approx(state.easiness - 0.32)
    assert review(failed, 4).interval == 1  # the first success after a lapse starts over


def test_easiness_never_below_floor() -> None:
    state = SM2State()
    for _ in range(20):
        state = review(state, 0)
    assert state.easiness == 1.3


def test_buttons_map_to_quality() -> None:
    assert BUTTON_QUALITY == {1: 2, 2: 3, 3: 4, 4: 5}
    assert [next_interval(SM2State(), button) for button in (1, 2, 3, 4)] == [1, 1, 1, 1]
    second = SM2State(repetitions=1, interval=1, easiness=2.5)
    assert [next_interval(second, button) for button in (1, 2, 3, 4)] == [1, 6, 6, 6]


@pytest.mark.parametrize("quality", [-1, 6])
def test_rejects_quality_out_of_range(quality: int) -> None:
    with pytest.raises(ValueError):
        review(SM2State(), quality)


@given(st.lists(st.integers(0, 5), max_size=40))
def test_easiness_stays_on_the_hundredths_grid(qualities: list[int]) -> None:
    state = SM2State()
    for quality in qualities:
        state = review(state, quality)
        assert round(state.easiness * 100) == pytest.approx(state.easiness * 100, abs=1e-9)
        assert state.easiness >= 1.3 and state.interval >= 1


def test_intervals_stop_at_a_hundred_years() -> None:
    state = SM2State()
    for _ in range(60):  # sixty perfect recalls: unbounded SM-2 would pass any calendar's end
        state = review(state, 5)
    assert state.interval == MAX_INTERVAL == 36_500
    before_cap = review(SM2State(5, 10_000, 2.5), 5)
    assert before_cap.interval == 25_000  # below the cap, SM-2 exactly
