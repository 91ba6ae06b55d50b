"""What a figure covers: the study day it is computed on, a period and an optional block.

Study days come from drill.days: a review's day is stored with it (review.study_day); a
timestamp column (estimate and coding attempts, mock rounds) is compared with the UTC moment
at which a study day starts, which `day_start` gives as the inverse of drill.days.study_day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from drill.days import to_local

PERIODS: tuple[int | None, ...] = (7, 30, 365, None)  # None: all time
DEFAULT_PERIOD = 30
RETENTION_WINDOWS = (7, 30, 365)
HEATMAP_DAYS = 365
FORECAST_DAYS = 30
MATURE_DAYS = 21


def period_label(period: int | None) -> str:
    return "all time" if period is None else f"last {period} days"


def period_key(period: int | None) -> str:
    return "all" if period is None else str(period)


def parse_period(text: str) -> int | None:
    """'7', '30', '365' or 'all'."""
    if text == "all":
        return None
    value = int(text)
    if value not in PERIODS:
        raise ValueError(f"period must be one of 7, 30, 365, all; not {text}")
    return value


def day_start(day: date, rollover_hour: int) -> datetime:
    """The UTC moment study day `day` begins: local midnight plus the rollover hour.

    The inverse of drill.days.study_day: study_day(day_start(d, h), h) == d.
    """
    return to_local(datetime.combine(day, time(hour=rollover_hour))).astimezone(UTC)


def moment_text(moment: datetime) -> str:
    """A UTC moment as the store writes it (ISO text), for comparing with timestamp columns."""
    return moment.astimezone(UTC).isoformat()


EARLIEST = moment_text(datetime.min.replace(tzinfo=UTC))


@dataclass(frozen=True)
class Scope:
    """The figures' frame: `today` (a study day), the period, the block filter, the recall target
    and the memory model that predicts recall."""

    today: date
    period: int | None = DEFAULT_PERIOD
    block: str | None = None
    rollover_hour: int = 4
    interview_date: date | None = None
    scheduler: str = "sm2"  # the memory model whose recall prediction readiness shows
    leech_threshold: int = 8  # lapses that make a leech (drill.schedule.leech)

    @property
    def first_day(self) -> date | None:
        """The first study day of the period (None: all time)."""
        return None if self.period is None else self.today - timedelta(days=self.period - 1)

    @property
    def target_day(self) -> date:
        """The day predicted recall is computed for: the interview date while it is ahead, else today."""
        if self.interview_date is not None and self.interview_date >= self.today:
            return self.interview_date
        return self.today

    @property
    def since(self) -> str:
        """The period's first moment as stored timestamp text (for all time, the earliest moment
        both SQLite's text and PostgreSQL's timestamps compare with)."""
        first = self.first_day
        return EARLIEST if first is None else moment_text(day_start(first, self.rollover_hour))

    @property
    def until(self) -> str:
        """The moment tomorrow (as a study day) begins, as stored timestamp text."""
        return moment_text(day_start(self.today + timedelta(days=1), self.rollover_hour))

    def params(self) -> dict[str, object]:
        """Bind parameters every query may use."""
        return {
            "today": self.today.isoformat(),
            "first_day": (self.first_day or date.min).isoformat(),
            "since": self.since,
            "until": self.until,
            "block": self.block,
            "target": self.target_day.isoformat(),
            "mature": MATURE_DAYS,
        }
