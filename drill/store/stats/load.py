"""The daily load: items due on each of the next 30 study days, and what is unseen.

Day 0 is today and includes everything overdue, as the review queue does. Due coding drills are
counted: they come up in the review (`drill queue`) as every other kind does. The unseen count
leaves drills out, as the home screen's new count does.
"""

from __future__ import annotations

from datetime import date, timedelta

from pydantic import Field, computed_field
from sqlalchemy import Connection, func, select

from drill.read_model import ReadModel
from drill.store.dialect import as_date, dialect
from drill.store.queries import ACTIVE
from drill.store.stats.scope import FORECAST_DAYS, Scope
from drill.store.stats.sql import of_block
from drill.store.tables import item


class ForecastDay(ReadModel):
    day: date
    due: int


class Forecast(ReadModel):
    """Its JSON: the unseen items and the due count of each day ahead."""

    start: date = Field(exclude=True)
    due: tuple[int, ...] = Field(exclude=True)  # due[0]: today, overdue included
    overdue: int = Field(exclude=True)
    unseen: int

    def day(self, index: int) -> date:
        return self.start + timedelta(days=index)

    @computed_field
    @property
    def forecast(self) -> list[ForecastDay]:
        return [ForecastDay(day=self.day(n), due=count) for n, count in enumerate(self.due)]


def forecast(connection: Connection, scope: Scope) -> Forecast:
    last = scope.today + timedelta(days=FORECAST_DAYS - 1)
    in_scope = (ACTIVE, *of_block(scope))
    day = dialect(connection).greatest_of(item.c.due_day, scope.today).label("day")
    counts = {
        as_date(day): number
        for day, number in connection.execute(
            select(day, func.count()).where(*in_scope, item.c.due_day <= last).group_by("day")
        )
    }
    overdue, unseen = connection.execute(
        select(
            func.count().filter(item.c.due_day < scope.today),
            func.count().filter(item.c.last_review_day.is_(None), item.c.kind != "coding"),
        ).where(*in_scope)
    ).one()
    due = tuple(counts.get(scope.today + timedelta(days=n), 0) for n in range(FORECAST_DAYS))
    return Forecast(start=scope.today, due=due, overdue=overdue, unseen=unseen)
