"""The period's figures (estimation, coding drills, the pitch ladder) against a straightforward
recount in Python of a generated history: ties, unparsable answers, shared workspaces and a
history longer than a year, for every period and block, after a switch and read afresh."""

from __future__ import annotations

import random
import sqlite3
import statistics
from collections import Counter
from datetime import UTC, date, datetime, timedelta

import pytest
from helpers.stats_history import TODAY, make_history, open_history

from drill.days import study_day
from drill.schedule.pitch_time import SHORTEST_SHARE
from drill.stats.report import PERIODS, load_report
from drill.store.stats.scope import Scope

ROLLOVER = 4
FAMILIES = {"estimate:kv-cache": "inference", "estimate:matmul-intensity": "compute"}
DRILLS = {"kernel:online-softmax": "compute", "kernel:lora-linear": "training"}
PITCHES = {"p-30": 30, "p-120": 120, "p-300": 300}  # all in memory
SLIPS = (None, None, "GB for GiB", "bits for bytes", "off by 1000")
NOON = datetime(TODAY.year, TODAY.month, TODAY.day, 12, tzinfo=UTC)


def _moment(rng: random.Random) -> datetime:
    """A moment up to 800 days back, on a whole minute (so that some coincide)."""
    return NOON - timedelta(minutes=rng.randrange(800 * 24 * 60) // 180 * 180)


def _generate(database, seed: int) -> None:
    rng = random.Random(seed)
    connection = sqlite3.connect(database)
    with connection:
        for _ in range(300):
            error = None if rng.random() < 0.1 else round(rng.random(), 1)  # ties in every median
            connection.execute(
                """INSERT INTO estimate_attempt (item_id, attempted_at, params, answer, truth, unit, score, log_error,
                slip, seconds) VALUES (?, ?, '{}', '1 GB', 1e9, 'byte', ?, ?, ?, 30)""",
                (rng.choice(list(FAMILIES)), _moment(rng).isoformat(), rng.random(), error, rng.choice(SLIPS)),
            )
        for _ in range(120):
            when = (NOON - timedelta(days=20 * rng.randrange(40))).isoformat()  # runs at one moment in many workspaces
            connection.execute(
                """INSERT INTO coding_attempt (item_id, started_at, finished_at, status, passed, failed, device,
                hints_used, seconds, workspace) VALUES (?, ?, ?, ?, 1, 1, 'cpu', ?, ?, ?)""",
                (
                    rng.choice(list(DRILLS)),
                    when,
                    when,
                    rng.choice(("pass", "fail", "error")),
                    rng.randrange(4),
                    rng.choice((60.0, 120.0, rng.uniform(30, 900))),
                    f"w-{rng.randrange(50)}",  # a workspace's runs: one to several
                ),
            )
        for item_id in DRILLS:  # the latest runs of two workspaces at one moment: the later name is the latest attempt
            for workspace, status, seconds in (("w-y", "pass", 50.0), ("w-z", "fail", 70.0)):
                connection.execute(
                    """INSERT INTO coding_attempt (item_id, started_at, finished_at, status, passed, failed, device,
                    hints_used, seconds, workspace) VALUES (?, ?, ?, ?, 1, 1, 'cpu', 1, ?, ?)""",
                    (item_id, NOON.isoformat(), NOON.isoformat(), status, seconds, workspace),
                )
        for _ in range(200):
            when = _moment(rng)
            connection.execute(
                """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
                reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
                VALUES (?, ?, ?, 3, 4, ?, 1, 1, 1, 2.5, 2, 2, 2.5)""",
                (
                    rng.choice(list(PITCHES)),
                    when.isoformat(),
                    study_day(when, ROLLOVER).isoformat(),
                    rng.choice((15_000, 30_000, 100_000, rng.randrange(5_000, 400_000))),
                ),
            )
    connection.close()


def _rows(database, sql: str) -> list[sqlite3.Row]:
    connection = sqlite3.connect(database)
    connection.row_factory = sqlite3.Row
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def _in_period(scope: Scope, moment: str) -> bool:
    return datetime.fromisoformat(scope.since) <= datetime.fromisoformat(moment) < datetime.fromisoformat(scope.until)


def _approx(value: float | None) -> object:
    return None if value is None else pytest.approx(value)


def _day(moment: str) -> date:
    return study_day(datetime.fromisoformat(moment), ROLLOVER)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _commonest(slips: list[str], limit: int) -> list[tuple[str, int]]:
    return sorted(Counter(slips).items(), key=lambda pair: (-pair[1], pair[0]))[:limit]


def _check_estimation(report, attempts: list[sqlite3.Row]) -> None:
    scope = report.scope
    chosen = [
        a
        for a in attempts
        if (scope.block is None or FAMILIES[a["item_id"]] == scope.block) and _in_period(scope, a["attempted_at"])
    ]
    figures = report.estimation
    assert figures.attempts == len(chosen)
    assert figures.mean_score == (pytest.approx(statistics.mean(a["score"] for a in chosen)) if chosen else None)
    assert figures.median_log_error == _median([a["log_error"] for a in chosen if a["log_error"] is not None])
    assert [(s.slip, s.count) for s in figures.slips] == _commonest([a["slip"] for a in chosen if a["slip"]], 5)
    expected = []
    for item_id in FAMILIES:
        mine = sorted((a for a in chosen if a["item_id"] == item_id), key=lambda a: (a["attempted_at"], a["id"]))
        if not mine:
            continue
        recent = [a["score"] for a in mine[-5:]]
        earlier = [a["score"] for a in mine[:-5]]
        expected.append(
            (
                statistics.mean(a["score"] for a in mine),
                item_id.removeprefix("estimate:"),
                len(mine),
                _median([a["log_error"] for a in mine if a["log_error"] is not None]),
                mine[-1]["score"],
                statistics.mean(recent),
                statistics.mean(recent) - statistics.mean(earlier) if earlier else None,
                _commonest([a["slip"] for a in mine if a["slip"]], 3),
            )
        )
    expected.sort(key=lambda family: (family[0], family[1]))
    found = [
        (f.mean_score, f.family, f.attempts, f.median_log_error, f.last_score, f.recent_score, f.trend,
         [(s.slip, s.count) for s in f.slips])
        for f in figures.families
    ]  # fmt: skip
    assert found == [
        (pytest.approx(m), family, n, median, last, pytest.approx(recent), _approx(trend), slips)
        for m, family, n, median, last, recent, trend, slips in expected
    ]
    # The trend: each bucket's attempts are those of its study days (the last bucket ends today).
    starts = [point.start for point in figures.trend] + [scope.today + timedelta(days=1)]
    for point, end in zip(figures.trend, starts[1:], strict=False):
        inside = [a for a in chosen if point.start <= _day(a["attempted_at"]) < end]
        assert point.attempts == len(inside)
        assert point.mean_score == (pytest.approx(statistics.mean(a["score"] for a in inside)) if inside else None)
        assert point.median_log_error == _median([a["log_error"] for a in inside if a["log_error"] is not None])
    assert sum(point.attempts for point in figures.trend) == len(chosen)


def _check_coding(report, runs: list[sqlite3.Row]) -> None:
    scope = report.scope
    expected = []
    for item_id, block in sorted(DRILLS.items()):
        mine = [r for r in runs if r["item_id"] == item_id and _in_period(scope, r["finished_at"])]
        if scope.block not in (None, block) or not mine:
            continue
        attempts: dict[str, list[sqlite3.Row]] = {}
        for run in mine:
            attempts.setdefault(run["workspace"], []).append(run)
        passing = [[r["seconds"] for r in a if r["status"] == "pass"] for a in attempts.values()]
        latest = max(attempts, key=lambda w: (max(r["finished_at"] for r in attempts[w]), w))
        last_passes = [r["seconds"] for r in attempts[latest] if r["status"] == "pass"]
        expected.append(
            (
                item_id.removeprefix("kernel:"),
                len(attempts),
                len(mine),
                sum(1 for p in passing if p),
                min((s for p in passing for s in p), default=None),
                min(last_passes) if last_passes else max(r["seconds"] for r in attempts[latest]),
                bool(last_passes),
                sum(max(r["hints_used"] for r in a) for a in attempts.values()),
            )
        )
    assert [
        (d.drill, d.attempts, d.runs, d.passed, d.best_s, d.last_s, d.last_passed, d.hints)
        for d in report.coding.drills
    ] == expected


def _check_activity(report, reviews: list[sqlite3.Row]) -> None:
    """The period's reviews and time per study day."""
    scope = report.scope
    days: dict[str, list[int]] = {}
    for r in reviews:
        if scope.block in (None, r["block"]) and r["study_day"] <= scope.today.isoformat():
            days.setdefault(r["study_day"], []).append(r["duration_ms"])
    first = scope.first_day or date.fromisoformat(min(days, default=scope.today.isoformat()))
    span = [(first + timedelta(days=n)).isoformat() for n in range((scope.today - first).days + 1)]
    assert report.activity.reviews.start == first
    assert report.activity.reviews.values == tuple(len(days.get(day, ())) for day in span)
    assert report.activity.seconds.values == tuple(sum(days.get(day, ())) / 1000 for day in span)
    times = [ms for day in span for ms in days.get(day, ())]
    assert report.activity.seconds_per_review == (pytest.approx(sum(times) / 1000 / len(times)) if times else None)


def _check_pitch(report, reviews: list[sqlite3.Row]) -> None:
    scope = report.scope
    first = scope.first_day or date.min
    for rung in report.pitch:
        mine = [
            r
            for r in reviews
            if PITCHES.get(r["item_id"]) == rung.target_s
            and scope.block in (None, "memory")
            and first.isoformat() <= r["study_day"] <= scope.today.isoformat()
        ]
        seconds = [r["duration_ms"] / 1000 for r in mine]
        assert rung.reviews == len(mine)
        assert rung.mean_s == (pytest.approx(statistics.mean(seconds)) if seconds else None)
        assert rung.median_s == _median(seconds)
        assert rung.within == sum(1 for s in seconds if SHORTEST_SHARE * rung.target_s <= s <= rung.target_s)
        assert rung.last_s == (max(mine, key=lambda r: r["id"])["duration_ms"] / 1000 if mine else None)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_period_figure_is_the_recount_of_its_rows(drill_home, tmp_path, clock, seed) -> None:
    paths = make_history(drill_home, tmp_path, clock)
    _generate(paths.database, seed)
    attempts = _rows(paths.database, "SELECT * FROM estimate_attempt")
    runs = _rows(paths.database, "SELECT * FROM coding_attempt")
    every = _rows(paths.database, "SELECT review.*, item.block FROM review JOIN item ON item.id = review.item_id")
    reviews = [r for r in every if r["item_id"] in PITCHES]
    study = open_history(paths, clock)
    try:
        for block in (None, "compute", "memory", "inference"):
            shown = load_report(study, 30, block)
            for period in PERIODS:
                shown = load_report(study, period, block, shown)
                afresh = load_report(study, period, block)
                assert shown.model_dump(mode="json") == afresh.model_dump(mode="json")
                _check_estimation(shown, attempts)
                _check_coding(shown, runs)
                _check_pitch(shown, reviews)
                _check_activity(shown, every)
    finally:
        study.close()
