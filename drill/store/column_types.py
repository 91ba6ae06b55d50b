"""How the store's days, moments and real numbers are typed on each database.

PostgreSQL has the types themselves (DATE, TIMESTAMP WITH TIME ZONE, DOUBLE PRECISION). SQLite
keeps days and moments as the ISO text drill writes (`date.isoformat()`, an aware UTC
`datetime.isoformat()`), compares them as text and hands that text back as it stands, as
`dialect.as_date` and `dialect.as_text` read it; SQLAlchemy's own SQLite types would write
another text (a space for the T, no offset) and refuse the ISO strings the stats bind.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Date, DateTime, Double, Float
from sqlalchemy.dialects import sqlite


def _iso(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


class _IsoTextDay(sqlite.DATE):
    """A day on SQLite: ISO text in, the stored text out."""

    def bind_processor(self, dialect: Any) -> Any:
        return _iso

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        return None


class _IsoTextMoment(sqlite.DATETIME):
    """A UTC moment on SQLite: ISO text in, the stored text out."""

    def bind_processor(self, dialect: Any) -> Any:
        return _iso

    def result_processor(self, dialect: Any, coltype: Any) -> Any:
        return None


Day = Date().with_variant(_IsoTextDay(), "sqlite")
Moment = DateTime(timezone=True).with_variant(_IsoTextMoment(), "sqlite")
Real = Float().with_variant(Double(), "postgresql")  # FLOAT on SQLite, DOUBLE PRECISION on PostgreSQL
