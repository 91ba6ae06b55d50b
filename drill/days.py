"""The study day: the one definition of "today" used everywhere.

Times are stored in UTC. A study day is the local calendar day shifted back by the rollover
hour, so a review at 1 am still counts for the evening before (default rollover: 4 am).
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta, timezone

MAX_AHEAD_DAYS = 36_500  # how far ahead a session may look (a hundred years): past any interval, every date valid
_WIDEST_OFFSET = 24 * 3600 - 1  # Python's timezone needs |offset| < 24 h; TZ='XYZ-25' gives 24 h


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_local(moment: datetime) -> datetime:
    """`moment` in the machine's time zone, as `moment.astimezone()` but never raising: an
    offset of a day or more is clamped just inside ±24 h, an unknown one is UTC. A naive
    `moment` is taken as local time."""
    try:
        offset = time.localtime(moment.timestamp()).tm_gmtoff
    except (OverflowError, OSError, ValueError):
        offset = 0
    zone = timezone(timedelta(seconds=max(-_WIDEST_OFFSET, min(_WIDEST_OFFSET, offset))))
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment.astimezone(zone)


def study_day(moment: datetime, rollover_hour: int) -> date:
    """The study day a UTC (or aware) moment falls on, in the local time zone."""
    return (to_local(moment) - timedelta(hours=rollover_hour)).date()


def describe_interval(days: int) -> str:
    """A short label for an interval, as shown on the grade buttons: 1d, 6d, 3.2mo, 1.4y."""
    if days < 31:
        return f"{days}d"
    if days < 365:
        return f"{days / 30.44:.1f}mo"
    return f"{days / 365.25:.1f}y"
