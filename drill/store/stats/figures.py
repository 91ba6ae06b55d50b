"""Every figure at once, read in one transaction (the mock interviews after it): the stats report,
and its JSON for `drill stats --json`.

    collect(engine, scope, new_room, plan=None) -> StatsReport
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from drill.store.stats.activity import Activity, activity
from drill.store.stats.coding import Coding, coding
from drill.store.stats.estimation import Estimation, MockHistory, estimation, mock_rounds
from drill.store.stats.interviews import InterviewFigures, interview_figures
from drill.store.stats.load import Forecast, forecast
from drill.store.stats.pitch import Rung, pitch_ladder
from drill.store.stats.readiness import Readiness, readiness
from drill.store.stats.rounding import rounded
from drill.store.stats.scope import Scope, period_key, period_label
from drill.store.stats.sql import ensure_math
from drill.store.stats.steering import Steering, steering

if TYPE_CHECKING:
    from drill.schedule.plan import Plan


@dataclass(frozen=True)
class TodayLoad:
    """Today's work in scope: due (overdue included), brought forward by the interview plan,
    new still to introduce, and what is done so far."""

    due: int
    overdue: int
    brought_forward: int
    new: int
    done: int
    seconds_done: float
    seconds_per_review: float | None  # the period's mean, for the estimate below

    @property
    def minutes_left(self) -> float | None:
        if self.seconds_per_review is None:
            return None
        return (self.due + self.brought_forward + self.new) * self.seconds_per_review / 60

    def as_json(self) -> dict[str, Any]:
        return {"due": self.due, "overdue": self.overdue, "brought_forward": self.brought_forward, "new": self.new,
                "done": self.done, "seconds_done": rounded(self.seconds_done, 1),
                "minutes_left": rounded(self.minutes_left, 1)}


@dataclass(frozen=True)
class StatsReport:
    scope: Scope
    readiness: Readiness
    forecast: Forecast
    today: TodayLoad
    activity: Activity
    estimation: Estimation
    mock: MockHistory
    coding: Coding
    pitch: tuple[Rung, ...]
    plan: "Plan | None" = None  # the interview plan while a date is set and ahead (drill.schedule.plan)
    interviews: InterviewFigures = InterviewFigures()
    steering: Steering = Steering(0, 0, ())

    def as_json(self) -> dict[str, Any]:
        scope = self.scope
        return {
            "period": period_key(scope.period),
            "period_label": period_label(scope.period),
            "period_start": self.activity.reviews.start.isoformat(),
            "block": scope.block,
            "readiness": self.readiness.as_json(),
            "load": {"today": self.today.as_json(), **self.forecast.as_json(),
                     "plan": None if self.plan is None else self.plan.as_json()},
            "activity": self.activity.as_json(),
            "retention": {str(window.days): window.as_json() for window in self.activity.retention},
            "estimation": self.estimation.as_json(),
            "mock_rounds": self.mock.as_json(),
            "mock_interviews": self.interviews.as_json(),
            "coding": self.coding.as_json(),
            "pitch": [rung.as_json() for rung in self.pitch],
            "steering": self.steering.as_json(),
        }


def collect(engine: Engine, scope: Scope, new_room: int, plan: "Plan | None" = None) -> StatsReport:
    """All figures for `scope`; `new_room` is how many new items today's queue may still introduce,
    `plan` the interview plan (its items brought forward today count when no block is chosen)."""
    forward = plan.bring_today if plan is not None and scope.block is None else 0
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":  # one snapshot for every figure, as SQLite's read gives
            connection.execution_options(isolation_level="REPEATABLE READ")
        ensure_math(connection)
        ahead = forecast(connection, scope)
        days = activity(connection, scope)
        report = StatsReport(
            scope=scope,
            readiness=readiness(connection, scope),
            forecast=ahead,
            today=TodayLoad(ahead.due[0], ahead.overdue, forward, min(ahead.unseen, max(0, new_room)),
                            days.today_reviews, days.today_seconds, days.seconds_per_review),
            activity=days,
            estimation=estimation(connection, scope),
            mock=mock_rounds(connection, scope),
            coding=coding(connection, scope),
            pitch=pitch_ladder(connection, scope),
            plan=plan,
            steering=steering(connection, scope),
        )
        connection.rollback()
    return replace(report, interviews=interview_figures(engine))
