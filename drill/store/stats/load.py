"""The daily load: items due on each of the next 30 study days, and what is unseen.

Day 0 is today and includes everything overdue, as the review queue does. Coding drills are
practised from their own screen and are left out, as they are from the home screen's due count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection

from drill.store.dialect import as_date, dialect
from drill.store.stats.scope import FORECAST_DAYS, Scope
from drill.store.stats.sql import item_block, rows

REVIEWED = "retired = FALSE AND suspended = FALSE AND kind != 'coding'"


@dataclass(frozen=True)
class Forecast:
    start: date
    due: tuple[int, ...]  # due[0]: today, overdue included
    overdue: int
    unseen: int

    def day(self, index: int) -> date:
        return self.start + timedelta(days=index)

    def as_json(self) -> dict[str, Any]:
        return {"unseen": self.unseen,
                "forecast": [{"day": self.day(n).isoformat(), "due": count} for n, count in enumerate(self.due)]}


def forecast(connection: Connection, scope: Scope) -> Forecast:
    last = scope.today + timedelta(days=FORECAST_DAYS - 1)
    counts = {
        as_date(day): number
        for day, number in rows(
            connection,
            f"""SELECT {dialect(connection).greatest('due_day', ':today')} AS day, COUNT(*) FROM item
            WHERE {REVIEWED} AND due_day <= :last {item_block(scope)} GROUP BY 1""",
            scope,
            last=last.isoformat(),
        )
    }
    overdue, unseen = rows(
        connection,
        f"""SELECT COUNT(*) FILTER (WHERE due_day < :today), COUNT(*) FILTER (WHERE last_review_day IS NULL)
        FROM item WHERE {REVIEWED} {item_block(scope)}""",
        scope,
    )[0]
    due = tuple(counts.get(scope.today + timedelta(days=n), 0) for n in range(FORECAST_DAYS))
    return Forecast(scope.today, due, overdue, unseen)
