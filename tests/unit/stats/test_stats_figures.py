"""Every figure against the hand-built history in stats_history.py (worked out by hand there)."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta

import pytest
from helpers.stats_history import TODAY, make_history, open_history

from drill.days import study_day
from drill.stats.report import load_report
from drill.store.stats.scope import day_start

R = 0.9  # the SM-2 recall proxy's base


@pytest.fixture
def history(drill_home, tmp_path, clock):
    return make_history(drill_home, tmp_path, clock)


@pytest.fixture
def study(history, clock):
    study = open_history(history, clock)
    yield study
    study.close()


def test_readiness_per_block_and_the_weakest_topics(study) -> None:
    ready = load_report(study).readiness
    assert ready.target_day == TODAY
    rows = {b.block: (b.items, b.seen, b.mature, b.due) for b in ready.blocks}
    assert rows == {
        "memory": (5, 4, 1, 2),
        "compute": (4, 2, 1, 0),
        "inference": (3, 1, 0, 1),
        "training": (1, 0, 0, 0),
        "communication": (0, 0, 0, 0),
    }
    recall = {b.block: b.recall for b in ready.blocks}
    assert recall["memory"] == pytest.approx((R ** (1 / 30) + R + R + R ** (2 / 6)) / 4)
    assert recall["compute"] == pytest.approx((R ** (3 / 6) + 1.0) / 2)
    assert recall["inference"] == pytest.approx(R**10)
    assert recall["training"] is None and recall["communication"] is None
    every = [R ** (1 / 30), R, R, R ** (2 / 6), R ** (3 / 6), 1.0, R**10]
    assert ready.recall == pytest.approx(sum(every) / 7)
    # Expected: the seen items' recall summed over all the items, unseen ones counting 0.
    expected = {b.block: b.expected for b in ready.blocks}
    assert expected["memory"] == pytest.approx((R ** (1 / 30) + R + R + R ** (2 / 6)) / 5)  # p-300 unseen
    assert expected["compute"] == pytest.approx((R ** (3 / 6) + 1.0) / 4)  # the family and the drill unseen
    assert expected["inference"] == pytest.approx(R**10 / 3)
    assert expected["training"] == 0.0 and expected["communication"] is None  # no items: no share
    assert ready.expected == pytest.approx(sum(every) / 13)
    assert ready.expected < ready.recall
    # The weakest topics rank by expected: the five untouched one-item topics (0) come first.
    assert [(t.block, t.topic) for t in ready.weakest] == [
        ("compute", "Arithmetic intensity of a matmul"),
        ("compute", "online softmax"),
        ("inference", "Batching"),
        ("inference", "KV cache size"),
        ("training", "LoRA"),
    ]
    assert all(t.expected == 0.0 and t.seen == 0 and t.recall is None for t in ready.weakest)
    memory = next(b for b in ready.blocks if b.block == "memory")
    assert [t.topic for t in memory.weakest] == ["Flash Attention", "KV cache"]
    flash = memory.weakest[0]
    assert (flash.items, flash.seen, flash.recall) == (3, 2, pytest.approx((R + R ** (1 / 3)) / 2))
    assert flash.expected == pytest.approx((R + R ** (1 / 3)) / 3)
    inference = next(b for b in ready.blocks if b.block == "inference")
    assert [t.topic for t in inference.weakest] == ["Batching", "KV cache size", "Decoding"]


def test_with_fsrs_predicted_recall_is_its_retrievability(history, clock) -> None:
    """S = interval for each seen item (stats_history.STATES); R = (1 + F·t/S)^-d, t days since the last review."""
    from drill.schedule.fsrs_model import FSRSState, forgetting_curve, retrievability

    ready = load_report_with(history, clock, 'scheduler = "fsrs"\n').readiness
    factor, decay = forgetting_curve()

    def r(elapsed: int, stability: float) -> float:
        return (1 + factor * elapsed / stability) ** -decay

    # The package's own retrievability agrees with the curve the SQL evaluates.
    state = FSRSState(6.0, 5.0, TODAY - timedelta(days=3), TODAY + timedelta(days=3))
    assert retrievability(state, TODAY) == pytest.approx(r(3, 6.0))
    recall = {b.block: b.recall for b in ready.blocks}
    assert recall["memory"] == pytest.approx((r(1, 30) + r(1, 1) + r(1, 1) + r(2, 6)) / 4)
    assert recall["compute"] == pytest.approx((r(3, 6) + 1.0) / 2)
    assert recall["inference"] == pytest.approx(r(10, 1))
    assert r(10, 1) != pytest.approx(R**10)  # a different model from the SM-2 proxy


def test_recall_is_predicted_for_the_interview_date_while_it_is_ahead(history, clock, drill_home) -> None:
    (drill_home / "config.toml").write_text("interview_date = 2026-12-02\n")
    study = open_history(history, clock)
    try:
        ready = load_report(study).readiness
    finally:
        study.close()
    assert ready.target_day == date(2026, 12, 2)
    inference = next(b for b in ready.blocks if b.block == "inference")
    assert inference.recall == pytest.approx(R**20)  # last seen 2026-11-12, interval 1
    plan = load_report_with(history, clock, "interview_date = 2026-12-02\n").plan
    # m-1 (due 21 Dec) and c-2 (due 17 Dec), last seen before the final week, come forward into it
    assert plan is not None and plan.brought_forward == 2 and len(plan.days) == 10
    assert [(load.day.day, load.brought_forward) for load in plan.days if load.brought_forward] == [(27, 1), (28, 1)]
    (drill_home / "config.toml").write_text("interview_date = 2026-11-01\n")
    study = open_history(history, clock)
    try:
        assert load_report(study).readiness.target_day == TODAY  # passed: today again
    finally:
        study.close()


def load_report_with(paths, clock, config: str, **options):
    (paths.home / "config.toml").write_text(config)
    study = open_history(paths, clock)
    try:
        return load_report(study, **options)
    finally:
        study.close()


def test_todays_load_follows_the_interview_plan(history, clock) -> None:
    # Two days out with 4 unseen items, 2 new a day are needed: faster than the configured 1.
    report = load_report_with(history, clock, "interview_date = 2026-11-24\nnew_per_day = 1\n")
    assert report.plan.days_left == 2 and report.plan.new_per_day == 2
    assert (report.today.due, report.today.brought_forward, report.today.new) == (3, report.plan.bring_today, 2)


def test_items_brought_forward_today_count_without_a_block_filter(study) -> None:
    from drill.schedule import plan as planning
    from drill.store.stats.figures import collect
    from drill.store.stats.scope import Scope

    plan = planning.make(TODAY, TODAY + timedelta(days=1), planning.PlanCounts(pending=5, scheduled={TODAY: 3}))
    assert plan.bring_today == 5
    everything = collect(study.engine, Scope(TODAY), 15, plan)
    assert (everything.today.due, everything.today.brought_forward) == (3, 5)
    assert everything.today.minutes_left == pytest.approx((3 + 5 + 4) * 22.7 / 60)
    assert collect(study.engine, Scope(TODAY, block="memory"), 15, plan).today.brought_forward == 0


def test_forecast_and_todays_load(study) -> None:
    report = load_report(study)
    due = [0] * 30
    due[0], due[3], due[4], due[25], due[29] = 3, 1, 1, 1, 1  # day 0 holds the one overdue item
    assert list(report.forecast.due) == due
    assert report.forecast.start == TODAY and report.forecast.overdue == 1 and report.forecast.unseen == 4
    today = report.today
    assert (today.due, today.overdue, today.new, today.done, today.seconds_done) == (3, 1, 4, 1, 12.0)
    assert today.seconds_per_review == pytest.approx(227 / 10)
    assert today.minutes_left == pytest.approx(7 * 22.7 / 60)


def test_heatmap_streak_and_time_per_day(study) -> None:
    activity = load_report(study).activity
    heat = activity.heatmap
    assert heat.start == TODAY - timedelta(days=364) and heat.end == TODAY and len(heat.values) == 365
    expected = {0: 1, -1: 3, -2: 2, -3: 2, -10: 2, -40: 1}
    assert {n - 364: v for n, v in enumerate(heat.values) if v} == expected
    assert heat.total == 11
    streak = activity.streak
    assert (streak.current, streak.longest, streak.days_studied) == (4, 4, 7)
    assert (streak.longest_start, streak.longest_end) == (TODAY - timedelta(days=3), TODAY)
    assert activity.reviews.start == TODAY - timedelta(days=29)
    assert (activity.reviews.total, activity.seconds.total, activity.reviews.active_days) == (10, 227.0, 5)
    assert activity.seconds.values[-4:] == (8.0, 125.0, 70.0, 12.0)


@pytest.mark.parametrize(
    "period, reviews, seconds, start",
    [
        (7, 8, 215.0, TODAY - timedelta(days=6)),
        (365, 11, 233.0, TODAY - timedelta(days=364)),
        (None, 12, 240.0, TODAY - timedelta(days=400)),
    ],
)
def test_periods(study, period, reviews, seconds, start) -> None:
    activity = load_report(study, period).activity
    assert (activity.reviews.total, activity.seconds.total, activity.reviews.start) == (reviews, seconds, start)
    assert activity.heatmap.total == 11  # the heatmap is always the last year


def test_true_retention_like_anki(study) -> None:
    retention = {w.days: w for w in load_report(study).activity.retention}
    assert {d: (w.mature.reviews, w.mature.passed) for d, w in retention.items()} == {
        7: (2, 1),
        30: (3, 2),
        365: (4, 3),
    }
    assert {d: (w.young.reviews, w.young.passed) for d, w in retention.items()} == {7: (2, 2), 30: (2, 2), 365: (2, 2)}
    assert retention[7].mature.rate == 0.5 and retention[365].mature.rate == 0.75


def test_block_filter_on_history(study) -> None:
    report = load_report(study, 30, "memory")
    assert [b.block for b in report.readiness.blocks] == ["memory"]
    heat = report.activity.heatmap
    assert {n - 364: v for n, v in enumerate(heat.values) if v} == {-1: 3, -2: 2, -10: 1, -40: 1}
    seven = report.activity.retention[0]
    assert (seven.mature.reviews, seven.mature.passed, seven.young.reviews) == (2, 1, 0)
    assert list(report.forecast.due[:5]) == [2, 0, 0, 0, 1]
    assert report.activity.streak.current == 4  # streaks are the user's, whatever the block


def test_estimation_per_family(study) -> None:
    est = load_report(study).estimation
    assert est.attempts == 7
    assert est.mean_score == pytest.approx(3.7 / 7)
    assert est.median_log_error == pytest.approx(0.3)
    kv, matmul = est.families
    assert (kv.family, kv.block, kv.attempts, kv.last_score, kv.trend) == ("kv-cache", "inference", 5, 1.0, None)
    assert (kv.mean_score, kv.median_log_error, kv.recent_score) == (
        pytest.approx(0.5),
        pytest.approx(0.3),
        pytest.approx(0.5),
    )
    assert [(s.slip, s.count) for s in kv.slips] == [("forgot the 2 for K and V", 2), ("bits for bytes", 1)]
    assert (matmul.family, matmul.attempts, matmul.last_score) == ("matmul-intensity", 2, 0.9)
    assert matmul.median_log_error == pytest.approx(0.26)  # the mean of the middle two
    assert [(s.slip, s.count) for s in est.slips] == [
        ("forgot the 2 for K and V", 2),
        ("bits for bytes", 1),
        ("off by 1000", 1),
    ]


def test_estimation_over_time_follows_the_study_day(study) -> None:
    est = load_report(study).estimation
    assert est.bucket_days == 1 and len(est.trend) == 30 and est.trend[0].start == TODAY - timedelta(days=29)
    today, yesterday = est.trend[-1], est.trend[-2]
    assert (today.attempts, today.mean_score, today.median_log_error) == (1, 0.9, 0.02)
    # 03:00 UTC today is before the 4 am rollover: it belongs with yesterday's attempt
    assert (yesterday.attempts, yesterday.mean_score) == (2, pytest.approx(0.65))
    assert yesterday.median_log_error == pytest.approx(0.255)
    assert sum(point.attempts for point in est.trend) == 7


def test_estimation_trend_and_unparsable_answers_over_all_time(study) -> None:
    est = load_report(study, None).estimation
    kv = next(f for f in est.families if f.family == "kv-cache")
    assert kv.attempts == 6 and kv.mean_score == pytest.approx(2.5 / 6)
    assert kv.median_log_error == pytest.approx(0.3)  # the unparsable answer has no error
    assert kv.trend == pytest.approx(0.5)  # the last five (0.5) against the one before (0.0)
    assert sum(point.attempts for point in est.trend) == 8
    assert load_report(study, 7).estimation.families[0].attempts == 4  # 8 days ago is out
    year = load_report(study, 365).estimation  # weekly buckets, the oldest cut at the period's start
    assert year.bucket_days == 7 and year.trend[0].start == TODAY - timedelta(days=364)
    assert sum(point.attempts for point in year.trend) == year.attempts == 8


def test_mock_round_history(study) -> None:
    mock = load_report(study).mock
    assert (mock.count, mock.finished, mock.mean_score, mock.best_score) == (2, 1, 0.6, 0.6)
    assert [r.id for r in mock.rounds] == [3, 2]
    abandoned, done = mock.rounds
    assert (abandoned.abandoned, abandoned.score, abandoned.answered) == (True, None, 0)
    # time used is the round's clock, start to finish (12:00 → 12:10), not the 90 s its two answers took
    assert (done.answered, done.problems, done.seconds, done.time_limit_s) == (2, 5, 600.0, 600)
    assert [r.id for r in load_report(study, 30, "inference").mock.rounds] == [2]
    everything = load_report(study, None).mock
    assert (everything.count, everything.finished, everything.mean_score, everything.best_score) == (
        3,
        2,
        pytest.approx(0.7),
        0.8,
    )


def test_coding_drills(study) -> None:
    coding = load_report(study).coding
    assert coding.available == 2 and (coding.attempts, coding.passed, coding.hints) == (3, 2, 3)
    lora, softmax = coding.drills
    assert (
        lora.drill,
        lora.attempts,
        lora.runs,
        lora.passed,
        lora.best_s,
        lora.last_s,
        lora.last_passed,
        lora.hints,
        lora.budget_s,
    ) == ("lora-linear", 1, 1, 1, 450.0, 450.0, True, 0, 600)
    assert (
        softmax.drill,
        softmax.attempts,
        softmax.runs,
        softmax.passed,
        softmax.pass_rate,
        softmax.best_s,
        softmax.last_s,
        softmax.last_passed,
        softmax.hints,
        softmax.budget_s,
    ) == ("online-softmax", 2, 5, 1, 0.5, 700.0, 400.0, False, 3, 900)
    assert [d.drill for d in load_report(study, 30, "training").coding.drills] == ["lora-linear"]


def test_pitch_ladder(study) -> None:
    rungs = {r.target_s: r for r in load_report(study).pitch}
    assert sorted(rungs) == [30, 120, 300]
    thirty = rungs[30]
    assert (thirty.items, thirty.reviews, thirty.mean_s, thirty.median_s, thirty.within, thirty.last_s) == (
        1,
        2,
        32.5,
        32.5,
        1,
        40.0,
    )
    assert (rungs[120].reviews, rungs[120].median_s, rungs[120].within_rate) == (1, 100.0, 1.0)
    assert (rungs[300].items, rungs[300].reviews, rungs[300].median_s) == (1, 0, None)
    assert all(r.reviews == 0 and r.items == 0 for r in load_report(study, 30, "compute").pitch)


def test_an_empty_store_has_figures_too(small_paths, clock) -> None:
    from drill.study import Study

    study = Study.open(small_paths, clock)
    try:
        report = load_report(study, None)
    finally:
        study.close()
    assert report.activity.streak.current == 0 and report.activity.heatmap.total == 0
    assert report.estimation.attempts == 0 and report.estimation.trend == ()
    assert report.readiness.recall is None and report.today.minutes_left is None


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Auckland"])
def test_day_start_is_the_inverse_of_study_day(zone, monkeypatch) -> None:
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        for day in (date(2026, 3, 8), date(2026, 3, 29), date(2026, 4, 5), date(2026, 11, 1), date(2026, 11, 22)):
            for hour in (0, 4, 23):
                start = day_start(day, hour)
                assert start.tzinfo == UTC
                assert study_day(start, hour) == day
                assert study_day(start - timedelta(microseconds=1), hour) == day - timedelta(days=1)
    finally:
        monkeypatch.setenv("TZ", "UTC")
        time.tzset()


def test_stored_moments_compare_as_text(study) -> None:
    """Timestamps are stored as ISO text in UTC; a period's bounds are the same text."""
    from drill.store.stats.scope import Scope

    scope = Scope(TODAY, 7, None, 4)
    assert scope.since == "2026-11-16T04:00:00+00:00" and scope.until == "2026-11-23T04:00:00+00:00"
    assert datetime.fromisoformat(scope.since) == day_start(TODAY - timedelta(days=6), 4)
