"""Every figure at once, read in one transaction (the mock interviews after it): the stats report,
and its JSON for `drill stats --json`.

    collect(engine, scope, new_room, plan=None, kept=None) -> StatsReport
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from pydantic import Field, computed_field
from sqlalchemy import Engine

from drill.read_model import ReadModel
from drill.schedule.plan import Plan
from drill.store.rounding import Tenths
from drill.store.stats.activity import Activity, Retention, activity
from drill.store.stats.coding import Coding, coding
from drill.store.stats.estimation import Estimation, MockHistory, estimation, mock_rounds
from drill.store.stats.interviews import InterviewFigures, interview_figures
from drill.store.stats.load import Forecast, ForecastDay, forecast
from drill.store.stats.pitch import Rung, pitch_ladder
from drill.store.stats.readiness import Readiness, readiness
from drill.store.stats.scope import Scope, period_key, period_label
from drill.store.stats.sql import ensure_math
from drill.store.stats.steering import Steering, steering


class TodayLoad(ReadModel):
    """Today's work in scope: due (overdue included), brought forward by the interview plan,
    new still to introduce, and what is done so far."""

    due: int
    overdue: int
    brought_forward: int
    new: int
    done: int
    seconds_done: Tenths
    seconds_per_review: float | None = Field(exclude=True)  # the period's mean, for the estimate below

    @computed_field
    @property
    def minutes_left(self) -> Tenths:
        if self.seconds_per_review is None:
            return None
        return (self.due + self.brought_forward + self.new) * self.seconds_per_review / 60


class Load(ReadModel):
    """The load part of the report's JSON: today, the days ahead, the interview plan."""

    today: TodayLoad
    unseen: int
    forecast: list[ForecastDay]
    plan: Plan | None


class StatsReport(ReadModel):
    """Every figure. Its JSON, the figures of `drill stats --json`: the scope, then each figure by name."""

    KEYS = (
        "period",
        "period_label",
        "period_start",
        "block",
        "readiness",
        "load",
        "activity",
        "retention",
        "estimation",
        "mock_rounds",
        "mock_interviews",
        "coding",
        "pitch",
        "steering",
    )

    scope: Scope = Field(exclude=True)
    readiness: Readiness
    forecast: Forecast = Field(exclude=True)
    today: TodayLoad = Field(exclude=True)
    activity: Activity
    estimation: Estimation
    mock: MockHistory = Field(serialization_alias="mock_rounds")
    coding: Coding
    pitch: tuple[Rung, ...]
    plan: Plan | None = Field(default=None, exclude=True)  # the interview plan while a date is set and ahead
    interviews: InterviewFigures = Field(default=InterviewFigures(), serialization_alias="mock_interviews")
    steering: Steering = Steering(cram_reviews=0, cram_rescheduled=0, leeches=())

    @computed_field
    @property
    def period(self) -> str:
        return period_key(self.scope.period)

    @computed_field
    @property
    def period_label(self) -> str:
        return period_label(self.scope.period)

    @computed_field
    @property
    def period_start(self) -> date:
        return self.activity.reviews.start

    @computed_field
    @property
    def block(self) -> str | None:
        return self.scope.block

    @computed_field
    @property
    def load(self) -> Load:
        return Load(today=self.today, unseen=self.forecast.unseen, forecast=self.forecast.forecast, plan=self.plan)

    @computed_field
    @property
    def retention(self) -> dict[str, Retention]:
        return {str(window.days): window for window in self.activity.retention}


def _keeps(kept: StatsReport | None, scope: Scope) -> StatsReport | None:
    """`kept` when it is the same day's and block's figures under another period, else None."""
    return kept if kept is not None and replace(kept.scope, period=scope.period) == scope else None


def collect(
    engine: Engine, scope: Scope, new_room: int, plan: Plan | None = None, kept: StatsReport | None = None
) -> StatsReport:
    """All figures for `scope`; `new_room` is how many new items today's queue may still introduce,
    `plan` the interview plan (its items brought forward today count when no block is chosen).

    `kept`, the figures of another period just read (a period switch): the figures no period
    changes (readiness and its calibration, the forecast, the leeches, the mock interviews, the
    heatmap, streak and retention windows) are taken from it when it has the same day and block,
    and only the period's are read."""
    forward = plan.bring_today if plan is not None and scope.block is None else 0
    same = _keeps(kept, scope)
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":  # one snapshot for every figure, as SQLite's read gives
            connection.execution_options(isolation_level="REPEATABLE READ")
        ensure_math(connection)
        ahead = same.forecast if same else forecast(connection, scope)
        days = activity(connection, scope, same.activity if same else None)
        report = StatsReport(
            scope=scope,
            readiness=same.readiness if same else readiness(connection, scope),
            forecast=ahead,
            today=TodayLoad(
                due=ahead.due[0],
                overdue=ahead.overdue,
                brought_forward=forward,
                new=min(ahead.unseen, max(0, new_room)),
                done=days.today_reviews,
                seconds_done=days.today_seconds,
                seconds_per_review=days.seconds_per_review,
            ),
            activity=days,
            estimation=estimation(connection, scope),
            mock=mock_rounds(connection, scope),
            coding=coding(connection, scope),
            pitch=pitch_ladder(connection, scope),
            plan=plan,
            steering=steering(connection, scope, same.steering if same else None),
        )
        connection.rollback()
    return report.model_copy(update={"interviews": same.interviews if same else interview_figures(engine)})
