"""Every figure at once (drill.store.stats.figures reads them in one transaction), and what
`drill stats` prints: the home counts and the figures together.

    load_report(study, period=30, block=None) -> StatsReport    what the stats screen's worker runs
    Stats(home, report).model_dump(mode="json")                  `drill stats --json`
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from drill.home import HomeSummary
from drill.store.stats.figures import StatsReport, collect
from drill.store.stats.scope import DEFAULT_PERIOD, PERIODS, Scope

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from drill.config import Config
    from drill.schedule.plan import Plan


class StatsSource(Protocol):
    """What the figures are read from (the study layer passes itself)."""

    engine: Engine
    config: Config

    @property
    def today(self) -> date: ...

    def settle(self) -> object: ...

    def interview_plan(self, today: date) -> Plan | None: ...


__all__ = ["PERIODS", "Stats", "StatsReport", "load_report"]


def scope_for(study: StatsSource, period: int | None = DEFAULT_PERIOD, block: str | None = None) -> Scope:
    config = study.config
    return Scope(
        study.today,
        period,
        block,
        config.rollover_hour,
        config.interview_date,
        config.scheduler,
        config.leech_threshold,
    )


def load_report(
    study: StatsSource, period: int | None = DEFAULT_PERIOD, block: str | None = None, kept: StatsReport | None = None
) -> StatsReport:
    """The figures for the stats screen (run it in a worker thread): pending grades land first.
    `kept`: the figures the screen shows now, whose period-independent ones a period switch keeps
    (drill.store.stats.figures.collect)."""
    from drill.store.queries import day_progress

    study.settle()
    scope = scope_for(study, period, block)
    progress = day_progress(study.engine, scope.today)
    plan = study.interview_plan(scope.today)
    pace = plan.new_per_day if plan is not None else study.config.new_per_day
    return collect(study.engine, scope, pace - progress.new_done, plan, kept)


class Stats(BaseModel):
    """What `drill stats` prints: the home screen's counts (the spine) and every figure. Its JSON,
    `drill stats --json`, is one object: the spine's keys first, unchanged, then every figure's."""

    model_config = ConfigDict(frozen=True)

    home: HomeSummary
    report: StatsReport

    def __init__(self, home: HomeSummary, report: StatsReport) -> None:
        super().__init__(home=home, report=report)

    @model_serializer(mode="wrap")
    def _spine_then_figures(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped = handler(self)
        return {**dumped["home"], **dumped["report"]}
