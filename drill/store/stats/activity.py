"""Reviews per study day: the calendar heatmap, time spent, streaks and true retention.

The review table's triggers keep, per study day and block, the reviews, their time and the
counted passes of young and mature items (table review_day, revision 0014); the heatmap, the
time series, the streaks and the retention windows are sums over those (at most a few thousand)
day rows, however long the history.

True retention is Anki's: among counted reviews (the first of the day for an item) of items
whose interval was at least 21 days (mature) or 1–20 days (young), the share not graded Again.
Streaks are the user's, whatever the block filter: consecutive study days with a review.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pydantic import Field, computed_field, field_serializer
from sqlalchemy import Connection, column

from drill.read_model import ReadModel
from drill.store.dialect import as_date, as_day, dialect
from drill.store.rounding import Rounded, Tenths, rounded
from drill.store.stats.scope import HEATMAP_DAYS, RETENTION_WINDOWS, Scope
from drill.store.stats.sql import counts, item_block, ratio, rows
from drill.store.tables import review_day


@dataclass(frozen=True)
class DayRow:
    day: date
    reviews: int
    ms: int
    mature: int
    mature_passed: int
    young: int
    young_passed: int


@dataclass(frozen=True)
class Series:
    """A value per study day from `start` to `end` (dense: days without reviews are 0)."""

    start: date
    values: tuple[float, ...]

    @property
    def end(self) -> date:
        return self.start + timedelta(days=len(self.values) - 1)

    @property
    def total(self) -> float:
        return sum(self.values)

    @property
    def active_days(self) -> int:
        return sum(1 for value in self.values if value)

    @property
    def peak(self) -> float:
        return max(self.values, default=0)


class PassRate(ReadModel):
    reviews: int
    passed: int

    @computed_field
    @property
    def rate(self) -> Rounded:
        return ratio(self.passed, self.reviews)


class Retention(ReadModel):
    days: int = Field(exclude=True)  # the window (the report's JSON keys the windows by it)
    young: PassRate
    mature: PassRate


class Streak(ReadModel):
    current: int
    longest: int
    longest_start: date | None
    longest_end: date | None
    days_studied: int


class Activity(ReadModel):
    """Its JSON: the heatmap, the streak, the period's days and their totals (true retention is a
    figure of its own in the report's JSON)."""

    KEYS = ("heatmap", "streak", "per_day", "reviews", "seconds", "active_days")

    heatmap: Series  # reviews per day, the last 365 days
    reviews: Series = Field(exclude=True)  # reviews per day over the period
    seconds: Series = Field(exclude=True)  # time spent per day over the period
    retention: tuple[Retention, ...] = Field(exclude=True)
    streak: Streak
    today_reviews: int = Field(exclude=True)
    today_seconds: float = Field(exclude=True)
    seconds_per_review: float | None = Field(exclude=True)  # over the period

    @field_serializer("heatmap")
    def _heatmap(self, heatmap: Series) -> dict[str, Any]:
        return {"start": heatmap.start, "end": heatmap.end, "reviews": list(heatmap.values)}

    @computed_field
    @property
    def per_day(self) -> dict[str, Any]:
        return {
            "start": self.reviews.start,
            "reviews": list(self.reviews.values),
            "seconds": [rounded(value, 1) for value in self.seconds.values],
        }

    @computed_field(alias="reviews")
    @property
    def reviews_total(self) -> int:
        return int(self.reviews.total)

    @computed_field(alias="seconds")
    @property
    def seconds_total(self) -> Tenths:
        return self.seconds.total

    @computed_field
    @property
    def active_days(self) -> int:
        return self.reviews.active_days


def daily(connection: Connection, scope: Scope, first: date) -> dict[date, DayRow]:
    """Per study day from `first` to today: reviews, time, and counted young and mature passes."""
    found = rows(
        connection,
        f"""SELECT study_day, SUM(reviews), SUM(duration_ms), SUM(mature), SUM(mature_passed), SUM(young),
            SUM(young_passed)
        FROM review_day WHERE study_day >= :from_day AND study_day <= :today {item_block(scope, "review_day")}
        GROUP BY study_day""",
        scope,
        (review_day.c.study_day, *counts("reviews", "ms", "mature", "mature_passed", "young", "young_passed")),
        from_day=first.isoformat(),
    )
    return {as_day(row[0]): DayRow(as_day(row[0]), *row[1:]) for row in found}


def earlier(connection: Connection, scope: Scope, before: date) -> dict[date, DayRow]:
    """Per study day before `before`: reviews and time only (what an all-time period shows)."""
    found = rows(
        connection,
        f"""SELECT study_day, SUM(reviews), SUM(duration_ms) FROM review_day
        WHERE study_day < :before {item_block(scope, "review_day")} GROUP BY study_day""",
        scope,
        (review_day.c.study_day, *counts("reviews", "ms")),
        before=before.isoformat(),
    )
    return {as_day(row[0]): DayRow(as_day(row[0]), row[1], row[2], 0, 0, 0, 0) for row in found}


def streak(connection: Connection, scope: Scope) -> Streak:
    sql = dialect(connection)
    row = rows(
        connection,
        # The study days with a review (review_day's), then runs of consecutive days.
        f"""WITH days(d) AS (SELECT DISTINCT study_day FROM review_day WHERE study_day <= :today),
            runs AS (SELECT MIN(d) AS first, MAX(d) AS last, COUNT(*) AS length
                     FROM (SELECT d, {sql.days_between("d", "'2000-01-01'")} - ROW_NUMBER() OVER (ORDER BY d) AS island
                           FROM days WHERE d IS NOT NULL) AS numbered
                     GROUP BY island)
        SELECT (SELECT CAST(COALESCE(SUM(length), 0) AS INTEGER) FROM runs) AS studied,
            (SELECT length FROM runs WHERE last >= {sql.days_before(":today", 1)}) AS current,
            longest.length, longest.first, longest.last
        FROM (SELECT 1 AS one) AS anchor
            LEFT JOIN (SELECT * FROM runs ORDER BY length DESC, last DESC LIMIT 1) AS longest ON TRUE""",
        scope,
        (
            *counts("studied", "current", "length"),
            column("first", review_day.c.study_day.type),
            column("last", review_day.c.study_day.type),
        ),
    )[0]
    return Streak(
        current=row.current or 0,
        longest=row.length or 0,
        longest_start=as_date(row.first),
        longest_end=as_date(row.last),
        days_studied=row.studied,
    )


def _series(days: dict[date, DayRow], start: date, end: date, value: Callable[[DayRow], float]) -> Series:
    """`value` of each day from `start` to `end` that has a row, 0 for the others."""
    values: list[float] = [0] * max((end - start).days + 1, 0)
    for day, row in days.items():
        if 0 <= (offset := (day - start).days) < len(values):
            values[offset] = value(row)
    return Series(start, tuple(values))


def _retention(days: dict[date, DayRow], today: date, window: int) -> Retention:
    first = today - timedelta(days=window - 1)
    inside = [row for day, row in days.items() if day >= first]
    return Retention(
        days=window,
        young=PassRate(reviews=sum(row.young for row in inside), passed=sum(row.young_passed for row in inside)),
        mature=PassRate(reviews=sum(row.mature for row in inside), passed=sum(row.mature_passed for row in inside)),
    )


def _period_days(connection: Connection, scope: Scope) -> tuple[date, dict[date, DayRow]]:
    """The period's first day and its days' reviews and time (all time: from the first day with a review)."""
    first = scope.first_day
    found = rows(
        connection,
        f"""SELECT study_day, SUM(reviews), SUM(duration_ms) FROM review_day
        WHERE study_day >= :from_day AND study_day <= :today {item_block(scope, "review_day")} GROUP BY study_day""",
        scope,
        (review_day.c.study_day, *counts("reviews", "ms")),
        from_day=(first or date.min).isoformat(),
    )
    days = {as_day(row[0]): DayRow(as_day(row[0]), row[1], row[2], 0, 0, 0, 0) for row in found}
    return first or min(days, default=scope.today), days


def activity(connection: Connection, scope: Scope, kept: Activity | None = None) -> Activity:
    """`kept`: the same day's and block's activity under another period (a period switch), whose
    heatmap, retention, streak and today's figures no period changes: only the period's days are read."""
    today = scope.today
    if kept is not None:
        first, period = _period_days(connection, scope)
        return _with_period(kept, period, first, today)
    heat_start = today - timedelta(days=HEATMAP_DAYS - 1)
    period_start = scope.first_day
    days = daily(connection, scope, heat_start if period_start is None else min(heat_start, period_start))
    if period_start is None:
        days.update(earlier(connection, scope, heat_start))
        period_start = min(days, default=today)
    now = days.get(today)
    whole = Activity(
        heatmap=_series(days, heat_start, today, lambda row: row.reviews),
        reviews=Series(today, ()),
        seconds=Series(today, ()),
        retention=tuple(_retention(days, today, window) for window in RETENTION_WINDOWS),
        streak=streak(connection, scope),
        today_reviews=now.reviews if now else 0,
        today_seconds=now.ms / 1000 if now else 0.0,
        seconds_per_review=None,
    )
    return _with_period(whole, days, period_start, today)


def _with_period(whole: Activity, days: dict[date, DayRow], period_start: date, today: date) -> Activity:
    """`whole`'s period-independent figures with the period's series from `days`."""
    in_period = [row for day, row in days.items() if day >= period_start]
    reviews = sum(row.reviews for row in in_period)
    seconds = sum(row.ms for row in in_period) / 1000
    return whole.model_copy(
        update={
            "reviews": _series(days, period_start, today, lambda row: row.reviews),
            "seconds": _series(days, period_start, today, lambda row: row.ms / 1000),
            "seconds_per_review": seconds / reviews if reviews else None,
        }
    )
