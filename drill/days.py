"""The study day: the one definition of "today" used everywhere.

Times are stored in UTC. A study day is the local calendar day shifted back by the rollover
hour, so a review at 1 am still counts for the evening before (default rollover: 4 am).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def study_day(moment: datetime, rollover_hour: int) -> date:
    """The study day a UTC (or aware) moment falls on, in the local time zone."""
    local = moment.astimezone()
    return (local - timedelta(hours=rollover_hour)).date()


def describe_interval(days: int) -> str:
    """A short label for an interval, as shown on the grade buttons: 1d, 6d, 3.2mo, 1.4y."""
    if days < 31:
        return f"{days}d"
    if days < 365:
        return f"{days / 30.44:.1f}mo"
    return f"{days / 365.25:.1f}y"
