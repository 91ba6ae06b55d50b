"""The record that predicts a mock interview, read from a hand-built history: first tries, what
recalled answers score, the recall predictions the reviews bore out, the pace of study; an
interview stored with its forecast, read back, and checked against its score (the mock check)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

import pytest
from helpers.clock import FIXED_NOW
from helpers.content import PITCH, TestPaths, add_problems, write_deck
from helpers.interview import run_interview
from helpers.reviews import grade

from drill.config import Config
from drill.interview.forecast import GOOD, lift, recalibration
from drill.interview.settings import InterviewSettings
from drill.store.forecast import FIRST_TRY_POOL, ITEM_PRIOR, plan_reach, predicted, recent_pace, records
from drill.store.interviews import interview_history
from drill.store.stats.interviews import mock_check
from drill.study import Study
from drill.study.writes import write_estimate

GRILL = [f"grill-{n}" for n in range(1, 5)]
ESTIMATE = "estimate:kv-cache"
SETTINGS = InterviewSettings(grill=2, pitch_seconds=30, estimates=1)


@pytest.fixture
def study(drill_home, deck_dir, clock):
    write_deck(deck_dir, "grill.toml", [(item, "memory") for item in GRILL] + [("c-1", "compute")])
    (deck_dir / "pitch.toml").write_text(PITCH)
    paths = TestPaths(drill_home, deck_dir)
    add_problems(paths, "kv-cache.toml")
    paths.ensure()
    paths.config.write_text('scheduler = "sm2"\nfuzz = false\ninterview_date = 2026-12-22\n')
    study = Study.open(paths, clock, random.Random(5))
    yield study
    study.close()


def answer_estimate(study: Study, right: bool) -> None:
    card = study.reviews.cards([ESTIMATE])[0]
    problem = study.estimation.new_problem(ESTIMATE)
    attempt = study.estimation.answer(problem, problem.pretty if right else "1 byte", 60.0)
    write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())


def history(study: Study, clock) -> None:
    """Day 0: first tries (grill-2 missed); day 6: second tries of grill-1 (missed) and grill-3."""
    for item, button in (("grill-1", 3), ("grill-2", 1), ("grill-3", 4), ("p-1", 2), ("c-1", 3)):
        grade(study, item, button)
    answer_estimate(study, right=True)
    clock.now = FIXED_NOW + timedelta(days=6)
    grade(study, "grill-1", 1)
    grade(study, "grill-3", 3)
    answer_estimate(study, right=False)
    study.drain()


def test_the_record_counts_first_tries_recalled_answers_and_the_predictions_that_came_true(study, clock) -> None:
    history(study, clock)
    found = records(study.engine, "sm2")
    # 2 of 3 grill first tries passed, held near every section's first tries as if FIRST_TRY_POOL (10) more
    # passed as often as those did: 5 of 6 (the pitch, the other card and the estimate passed), with
    # one failed try as their prior.
    assert found["grill"].first_try == pytest.approx((2 + FIRST_TRY_POOL * 5 / (6 + 1)) / (3 + FIRST_TRY_POOL))
    one_passed = (1 + FIRST_TRY_POOL * 5 / 7) / (1 + FIRST_TRY_POOL)
    assert found["pitch"].first_try == pytest.approx(one_passed)
    assert found["estimate"].first_try == pytest.approx(one_passed)
    assert found["coding"].first_try == 0.0  # never tried: no first try of its own to hold near the others
    # Recalled self-graded answers: Good, Easy, Hard, Good on day 0 and Good on day 6, two Goods as prior.
    passed = [GOOD, 1.0, 1 / 3, GOOD, GOOD, GOOD, GOOD]
    assert found["grill"].passed.mean == pytest.approx(sum(passed) / len(passed))
    assert found["grill"].passed.square == pytest.approx(sum(p * p for p in passed) / len(passed))
    assert found["grill"].failed.mean == 0.0
    # Day 6: grill-1 (1 day interval) was predicted 0.9^6 and missed; grill-3 (Easy: 1 day too) passed.
    # Fitted first on the predictions alone, then with each item's offset before the try: grill-1 and
    # grill-3 both passed their first try, which `grill`'s first-try rate g expected of them.
    g = found["grill"].first_try
    offset = (1 - g) / (g * (1 - g) + ITEM_PRIOR)
    self_graded = recalibration([(0.9**6, False, offset), (0.9**6, True, offset)])
    assert found["grill"].recall == found["pitch"].recall == self_graded
    # After: grill-1 missed what the first fit gave it, grill-2 missed its first try.
    plain = recalibration([(0.9**6, False), (0.9**6, True)])(0.9**6)
    offsets = found["grill"].offsets
    assert offsets["grill-1"] == pytest.approx((1 - g - plain) / (g * (1 - g) + plain * (1 - plain) + ITEM_PRIOR))
    assert offsets["grill-2"] == pytest.approx(-g / (g * (1 - g) + ITEM_PRIOR))
    assert offsets["grill-3"] > offsets["grill-1"]
    # What answers with a prediction scored, against their recalibrated chance: grill-3's Good, grill-1's miss.
    assert found["grill"].passed_lift == lift([(self_graded(0.9**6, offset), GOOD)])
    assert found["grill"].failed_lift == lift([(self_graded(0.9**6, offset), 0.0)])
    # The estimate: full credit on day 0, a miss on day 6 (predicted 0.9^6), held near the self-graded fit.
    e = found["estimate"].first_try
    estimate_offset = (1 - e) / (e * (1 - e) + ITEM_PRIOR)  # its first try passed
    assert found["estimate"].recall == recalibration([(0.9**6, False, estimate_offset)], self_graded)
    assert found["estimate"].passed.mean == pytest.approx((1.0 + 2 * 0.9) / 3)


def test_the_pace_is_the_last_days_new_items_and_study_days(study, clock) -> None:
    history(study, clock)
    pace = recent_pace(study.engine, (FIXED_NOW + timedelta(days=7)).date())
    assert pace is not None
    assert pace.new_per_day == {"card": 4 / 7, "pitch": 1 / 7, "estimate": 1 / 7, "coding": 0.0}  # first tries
    assert pace.study_share == pytest.approx(2 / 7)
    assert pace.seconds["card"] == pytest.approx(1.0)  # grade() spends a second
    assert pace.seconds["estimate"] == pytest.approx(60.0)
    assert pace.minutes == pytest.approx((5 + 60 + 2 + 60) / 60 / 2)  # every second given, over 2 study days
    assert recent_pace(study.engine, FIXED_NOW.date()) is None  # no day of history before today


def test_the_plan_reaches_for_the_target_from_the_record(study, clock) -> None:
    history(study, clock)
    today = (FIXED_NOW + timedelta(days=7)).date()
    config = Config.load(study.paths.config)
    reach = plan_reach(study.engine, config, today, study.fsrs_settings, 15)
    assert reach is not None and reach.target == 0.8
    assert reach.current.new_per_day == pytest.approx(6 / 7)  # six first tries in the last seven days
    assert reach.at_most.predicted.score >= reach.current.predicted.score
    none = plan_reach(study.engine, config.model_copy(update={"interview_date": None}), today, study.fsrs_settings, 15)
    assert none is None


def forecast_plan(study: Study, monkeypatch) -> None:
    """The study's interviews made with the forecast of what they drew, as the interview screen has them."""
    draw = study.interviews.plan

    def with_forecast(settings: InterviewSettings):
        plan = draw(settings)
        drawn = [(step.section, step.card) for step in plan.steps]
        return replace(plan, forecast=predicted(study.engine, drawn, study.today, "sm2"))

    monkeypatch.setattr(study.interviews, "plan", with_forecast)


def test_an_interview_keeps_its_forecast_and_the_mock_check_sets_it_against_the_score(
    study, clock, monkeypatch
) -> None:
    history(study, clock)
    forecast_plan(study, monkeypatch)
    clock.now = FIXED_NOW + timedelta(days=7)
    first = run_interview(study, SETTINGS)
    clock.now = FIXED_NOW + timedelta(days=9)
    second = run_interview(study, SETTINGS, ended="time")
    clock.now = FIXED_NOW + timedelta(days=10)
    run_interview(study, SETTINGS, ended="abandoned")  # left out: its unanswered questions score zero
    study.drain()
    stored = interview_history(study.engine)
    assert [card.forecast is not None for card in stored] == [True, True, True]
    with study.engine.connect() as connection:
        check = mock_check(connection, rollover_hour=4)
        column = list(connection.exec_driver_sql("SELECT predicted_score FROM mock_interview ORDER BY id").scalars())
    # The column keeps the score as predicted; the scorecard's forecast is read back from four-place JSON.
    assert column == pytest.approx([card.forecast.score for card in reversed(stored)], abs=1e-4)
    predictions = column[:2]  # the finished ones, oldest first
    assert [each.day.isoformat() for each in check.interviews] == ["2026-11-29", "2026-12-01"]
    assert [each.actual for each in check.interviews] == pytest.approx([first.score, second.score])
    assert [each.predicted for each in check.interviews] == pytest.approx(predictions)
    errors = [p - a for p, a in zip(predictions, [first.score, second.score], strict=True)]
    assert check.mean_absolute_error == pytest.approx(sum(map(abs, errors)) / 2)
    assert check.bias == pytest.approx(sum(errors) / 2)
    inside = [c.forecast.low <= c.score <= c.forecast.high for c in reversed(stored[1:])]
    assert check.within_range == pytest.approx(sum(inside) / 2)


def test_an_interview_started_without_a_forecast_has_none_and_no_check(study, monkeypatch) -> None:
    draw = study.interviews.plan  # as an interview an older drill stored
    monkeypatch.setattr(study.interviews, "plan", lambda settings: replace(draw(settings), forecast=None))
    run_interview(study, SETTINGS)
    study.drain()
    assert interview_history(study.engine)[0].forecast is None
    with study.engine.connect() as connection:
        check = mock_check(connection, rollover_hour=4)
    assert check.interviews == () and check.mean_absolute_error is None and check.bias is None
