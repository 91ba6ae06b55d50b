"""The fixed moment every test starts at, and a clock tests move forward by hand."""

from __future__ import annotations

from datetime import UTC, datetime

FIXED_NOW = datetime(2026, 11, 22, 15, 0, tzinfo=UTC)


class Clock:
    """A clock tests can move forward."""

    def __init__(self, now: datetime = FIXED_NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now
