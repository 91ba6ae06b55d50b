"""Readiness over time: the interview score predicted at the end of each of the last eight weeks'
points, checked against every item replayed from its grades (helpers/readiness_history.py), under
SM-2 and FSRS."""

from __future__ import annotations

from datetime import date

import pytest
from helpers.readiness_history import replayed_scores, studied, week_points

from drill.store.readiness_history import point_days, readiness_history, states_on
from drill.study import Study

TODAY = date(2026, 11, 22)  # conftest's clock


def test_the_points_are_today_and_the_same_weekday_of_the_eight_weeks_before() -> None:
    days = point_days(TODAY)
    assert days[0] == date(2026, 9, 27) and days[-1] == TODAY
    assert days == week_points(TODAY)


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_each_point_is_the_score_predicted_from_the_states_the_grades_left(small_paths, clock, scheduler) -> None:
    paths = studied(small_paths, clock)
    (paths.home / "config.toml").write_text(f'scheduler = "{scheduler}"\n')
    study = Study.open(paths, clock)
    try:
        history = readiness_history(study.engine, study.config, study.today)
        assert [point.day for point in history] == week_points(TODAY)
        expected = replayed_scores(study, week_points(TODAY))
        assert [point.predicted.score for point in history] == pytest.approx(expected, abs=1e-9)
        scores = [point.predicted.score for point in history]
        # the first point's day (56 days ago) was the first studied: its reviews count, as the
        # reviews on the other points' days do; and the studying since moved the prediction
        assert scores[0] != pytest.approx(replayed_scores(study, [date(2026, 9, 26)])[0], abs=1e-6)
        assert len(set(scores)) > 3
    finally:
        study.close()


@pytest.mark.slow
def test_an_item_not_reviewed_since_a_day_is_as_it_is_now(small_paths, clock) -> None:
    paths = studied(small_paths, clock)
    study = Study.open(paths, clock)
    try:
        states = states_on(study.engine, week_points(TODAY))
        assert states[TODAY] == {}  # nothing is reviewed after today
        last_week = states[date(2026, 11, 15)]
        assert last_week  # reviewed 2 and 1 days ago
        days = [state.last_review_day for state in last_week.values()]
        assert all(day is None or day <= date(2026, 11, 15) for day in days)
    finally:
        study.close()
