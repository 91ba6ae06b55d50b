"""The study day: the one definition of "today" used everywhere.

Times are stored in UTC. A study day is the local calendar day shifted back by the rollover
hour, so a review at 1 am still counts for the evening before (default rollover: 4 am).

To practise a schedule (and in tests), `--today DATE` or DRILL_TODAY moves the clock by whole
days so that the study day is DATE (practise_on): the time of day and the time between moments
stay as they are, and every command and the app take "now" from utc_now.
"""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta, timezone

MAX_AHEAD_DAYS = 36_500  # how far ahead a session may look (a hundred years): past any interval, every date valid
_WIDEST_OFFSET = 24 * 3600 - 1  # Python's timezone needs |offset| < 24 h; TZ='XYZ-25' gives 24 h


TODAY_VARIABLE = "DRILL_TODAY"
_shift = timedelta()  # how far the clock is moved to reach the practised study day (practise_on)


def utc_now() -> datetime:
    """Now, moved to the practised study day when there is one (practise_on)."""
    return datetime.now(UTC) + _shift


def as_day(value: str) -> date:
    """A YYYY-MM-DD date, or ValueError saying what a date looks like."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"not a date like 2026-12-01: {value!r}") from None


def practise_on(day: date | None, rollover_hour: int) -> None:
    """Make `day` the study day from now on (None: the real one again): the clock moves by whole days."""
    global _shift
    _shift = timedelta()
    if day is not None:
        _shift = timedelta(days=(day - study_day(utc_now(), rollover_hour)).days)


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
