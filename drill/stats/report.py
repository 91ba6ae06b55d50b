"""Every figure at once (drill.store.stats.figures reads them in one transaction), and its JSON
for `drill stats --json`.

    load_report(study, period=30, block=None) -> StatsReport    what the stats screen's worker runs
    report_json(report) -> dict                                  the figures as JSON-ready values
    stats_json(home, report) -> dict                             the spine's summary plus the figures
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_FLOOR, Decimal
from typing import TYPE_CHECKING, Any, Protocol

from drill.stats.interviews import interviews_json, with_interviews
from drill.stats.summary import summary_json
from drill.store.stats.calibration import CALIBRATION_DAYS, Calibration
from drill.store.stats.figures import StatsReport, collect
from drill.store.stats.scope import DEFAULT_PERIOD, PERIODS, Scope, period_key, period_label

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from drill.config import Config
    from drill.home import HomeSummary
    from drill.schedule.plan import Plan


class StatsSource(Protocol):
    """What the figures are read from (the study layer passes itself)."""

    engine: "Engine"
    config: "Config"

    @property
    def today(self) -> date: ...

    def settle(self) -> object: ...

    def interview_plan(self, today: date) -> "Plan | None": ...

__all__ = ["PERIODS", "StatsReport", "load_report", "report_json", "stats_json"]


def scope_for(study: StatsSource, period: int | None = DEFAULT_PERIOD, block: str | None = None) -> Scope:
    config = study.config
    return Scope(study.today, period, block, config.rollover_hour, config.interview_date, config.scheduler)


def load_report(study: StatsSource, period: int | None = DEFAULT_PERIOD, block: str | None = None) -> StatsReport:
    """The figures for the stats screen (run it in a worker thread): pending grades land first."""
    from drill.store.queries import day_progress

    study.settle()
    scope = scope_for(study, period, block)
    progress = day_progress(study.engine, scope.today)
    plan = study.interview_plan(scope.today)
    pace = plan.new_per_day if plan is not None else study.config.new_per_day
    return with_interviews(study.engine, collect(study.engine, scope, pace - progress.new_done, plan))


# -- JSON ------------------------------------------------------------------------------------


def _num(value: float | None, digits: int = 4) -> float | None:
    """Rounded for JSON; rounded to 9 places first, so that sums taken in another order (SQLite
    and PostgreSQL differ in the last bit) round a half-way figure the same way."""
    return None if value is None else round(round(float(value), 9), digits)


def _floor(value: float | None, digits: int = 4) -> float | None:
    """Rounded down (after the 9-place rounding of `_num`), for a share that must never overstate:
    3 items of 44 seen show expected 0.0681, not 0.0682 > 3/44."""
    if value is None:
        return None
    return float(Decimal(repr(round(float(value), 9))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_FLOOR))


def _day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _rate(reviews: int, passed: int, rate: float | None) -> dict[str, Any]:
    return {"reviews": reviews, "passed": passed, "rate": _num(rate)}


def calibration_json(calibration: "Calibration | None") -> dict[str, Any]:
    """Predictions against outcomes: reviews 0 and brier null when there is nothing to score."""
    if calibration is None:
        return {"days": None, "since": None, "model": None, "reviews": 0, "passed": 0, "brier": None,
                "predicted": None, "actual": None, "bins": []}
    return {
        "days": CALIBRATION_DAYS,
        "since": calibration.first_day.isoformat(),
        "model": calibration.model,
        "reviews": calibration.reviews,
        "passed": calibration.passed,
        "brier": _num(calibration.brier),
        "predicted": _num(calibration.predicted),
        "actual": _num(calibration.actual),
        "bins": [{"low": b.low, "high": b.high, "reviews": b.reviews, "predicted": _num(b.predicted),
                  "actual": _num(b.actual)} for b in calibration.bins],
    }


def report_json(report: StatsReport) -> dict[str, Any]:
    scope, ready, ahead, act = report.scope, report.readiness, report.forecast, report.activity
    est, mock = report.estimation, report.mock
    return {
        "period": period_key(scope.period),
        "period_label": period_label(scope.period),
        "period_start": _day(act.reviews.start),
        "block": scope.block,
        "readiness": {
            "target_day": ready.target_day.isoformat(),
            "recall_model": scope.scheduler,
            "items": ready.items,
            "seen": ready.seen,
            "mature": ready.mature,
            "recall": _num(ready.recall),
            "expected": _floor(ready.expected),
            "coverage": _floor(ready.coverage),
            "by_block": {
                block.block: {
                    "items": block.items, "seen": block.seen, "mature": block.mature, "due": block.due,
                    "recall": _num(block.recall), "expected": _floor(block.expected), "coverage": _floor(block.coverage),
                    "weakest": [{"topic": t.topic, "seen": t.seen, "items": t.items, "recall": _num(t.recall),
                                 "expected": _floor(t.expected)}
                                for t in block.weakest],
                }
                for block in ready.blocks
            },
            "weakest_topics": [
                {"block": t.block, "topic": t.topic, "seen": t.seen, "items": t.items, "recall": _num(t.recall),
                 "expected": _floor(t.expected)}
                for t in ready.weakest
            ],
            "calibration": calibration_json(ready.calibration),
        },
        "load": {
            "today": {
                "due": report.today.due, "overdue": report.today.overdue,
                "brought_forward": report.today.brought_forward, "new": report.today.new,
                "done": report.today.done, "seconds_done": _num(report.today.seconds_done, 1),
                "minutes_left": _num(report.today.minutes_left, 1),
            },
            "unseen": ahead.unseen,
            "forecast": [{"day": ahead.day(n).isoformat(), "due": count} for n, count in enumerate(ahead.due)],
            "plan": None if report.plan is None else report.plan.as_json(),
        },
        "activity": {
            "heatmap": {"start": act.heatmap.start.isoformat(), "end": act.heatmap.end.isoformat(),
                        "reviews": list(act.heatmap.values)},
            "streak": {
                "current": act.streak.current, "longest": act.streak.longest,
                "longest_start": _day(act.streak.longest_start), "longest_end": _day(act.streak.longest_end),
                "days_studied": act.streak.days_studied,
            },
            "per_day": {
                "start": act.reviews.start.isoformat(),
                "reviews": list(act.reviews.values),
                "seconds": [_num(value, 1) for value in act.seconds.values],
            },
            "reviews": int(act.reviews.total),
            "seconds": _num(act.seconds.total, 1),
            "active_days": act.reviews.active_days,
        },
        "retention": {
            str(window.days): {
                "young": _rate(window.young.reviews, window.young.passed, window.young.rate),
                "mature": _rate(window.mature.reviews, window.mature.passed, window.mature.rate),
            }
            for window in act.retention
        },
        "estimation": {
            "attempts": est.attempts,
            "mean_score": _num(est.mean_score),
            "median_log_error": _num(est.median_log_error),
            "families": [
                {
                    "family": f.family, "block": f.block, "topic": f.topic, "attempts": f.attempts,
                    "mean_score": _num(f.mean_score), "median_log_error": _num(f.median_log_error),
                    "last_score": _num(f.last_score), "recent_score": _num(f.recent_score), "trend": _num(f.trend),
                    "slips": [{"slip": s.slip, "count": s.count} for s in f.slips],
                }
                for f in est.families
            ],
            "slips": [{"slip": s.slip, "count": s.count} for s in est.slips],
            "trend": {
                "bucket_days": est.bucket_days,
                "points": [
                    {"start": p.start.isoformat(), "attempts": p.attempts, "mean_score": _num(p.mean_score),
                     "median_log_error": _num(p.median_log_error)}
                    for p in est.trend
                ],
            },
        },
        "mock_rounds": {
            "count": mock.count, "finished": mock.finished, "mean_score": _num(mock.mean_score),
            "best_score": _num(mock.best_score),
            "rounds": [
                {"id": r.id, "started_at": r.started_at, "problems": r.problems, "answered": r.answered,
                 "score": _num(r.score), "seconds": _num(r.seconds, 1), "time_limit_s": r.time_limit_s,
                 "abandoned": r.abandoned}
                for r in mock.rounds
            ],
        },
        "mock_interviews": interviews_json(report),
        "coding": {
            "available": report.coding.available,
            "attempts": report.coding.attempts,
            "passed": report.coding.passed,
            "pass_rate": _num(report.coding.pass_rate),
            "hints": report.coding.hints,
            "drills": [
                {"drill": d.drill, "block": d.block, "topic": d.topic, "budget_s": d.budget_s, "attempts": d.attempts,
                 "runs": d.runs, "passed": d.passed, "pass_rate": _num(d.pass_rate), "best_s": _num(d.best_s, 1),
                 "last_s": _num(d.last_s, 1), "last_passed": d.last_passed, "hints": d.hints}
                for d in report.coding.drills
            ],
        },
        "pitch": [
            {"target_s": r.target_s, "items": r.items, "reviews": r.reviews, "mean_s": _num(r.mean_s, 1),
             "median_s": _num(r.median_s, 1), "within_target": r.within, "within_rate": _num(r.within_rate),
             "last_s": _num(r.last_s, 1)}
            for r in report.pitch
        ],
    }


def stats_json(home: "HomeSummary", report: StatsReport) -> dict[str, Any]:
    """`drill stats --json`: the spine's keys first, unchanged, then every figure."""
    return {**summary_json(home), **report_json(report)}
