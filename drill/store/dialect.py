"""The SQL that differs between SQLite and PostgreSQL, in one place, so each query is written once.

    sql = dialect(connection)
    f"SELECT {sql.greatest('due_day', ':today')} …"           in text SQL
    select(sql.greatest_of(item.c.due_day, today))             in a Core statement

Everything else the store writes is portable as it stands: booleans compared with TRUE/FALSE,
conditional counts as COUNT(*) FILTER (WHERE …), sums of counts cast to INTEGER, subqueries
in FROM named. Values read back differ too: SQLite returns dates and moments as the ISO text
the store wrote, PostgreSQL as date and datetime objects (in UTC); `as_date` and `as_text`
read either (`as_day` and `as_iso` where the value is never NULL).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, func, literal_column

if TYPE_CHECKING:
    from sqlalchemy import Column, Connection, Engine


@dataclass(frozen=True)
class Dialect:
    postgres: bool

    def greatest(self, *values: str) -> str:
        """The largest of the values (SQLite's scalar MAX; on both, NULL only when every value is)."""
        return f"{'GREATEST' if self.postgres else 'MAX'}({', '.join(values)})"

    def greatest_of(self, *values: ColumnElement[Any] | object) -> ColumnElement[Any]:
        """`greatest` in a Core statement."""
        return (func.greatest if self.postgres else func.max)(*values)

    def least(self, *values: str) -> str:
        return f"{'LEAST' if self.postgres else 'MIN'}({', '.join(values)})"

    def days_between(self, later: str, earlier: str) -> str:
        """Whole days from the day `earlier` to the day `later`, as a floating-point number."""
        if self.postgres:
            return f"CAST(CAST({later} AS DATE) - CAST({earlier} AS DATE) AS DOUBLE PRECISION)"
        return f"(julianday({later}) - julianday({earlier}))"

    def days_before(self, day: str, days: int) -> str:
        """The day `days` days before the day `day`."""
        if self.postgres:
            return f"(CAST({day} AS DATE) - {days})"
        return f"date({day}, '-{days} day')"

    def unindexed(self, column: str) -> str:
        """`column`, marked so that SQLite's planner does not pick an index on it (a unary +)."""
        return column if self.postgres else f"+{column}"

    def unindexed_column(self, column: Column[Any]) -> ColumnElement[Any]:
        """`unindexed` in a Core statement."""
        return column if self.postgres else literal_column(f"+{column.table.name}.{column.name}", column.type)

    def json_has(self, column: str, value: str) -> str:
        """True when the JSON array of strings in `column` holds `value`."""
        if self.postgres:
            return (
                f"EXISTS (SELECT 1 FROM json_array_elements_text(CAST({column} AS JSON)) AS e(value) "
                f"WHERE e.value = {value})"
            )
        return f"EXISTS (SELECT 1 FROM json_each({column}) WHERE value = {value})"

    def json_ranges(self, param: str) -> str:
        """A SELECT of (bucket, lo, hi) rows from a JSON array of [lo, hi] moments bound to
        `param`: bucket is the position in the array, lo and hi compare with timestamp columns."""
        if self.postgres:
            return (
                "SELECT CAST(n - 1 AS INTEGER) AS bucket, CAST(pair ->> 0 AS TIMESTAMPTZ) AS lo, "
                f"CAST(pair ->> 1 AS TIMESTAMPTZ) AS hi FROM json_array_elements(CAST({param} AS JSON)) "
                "WITH ORDINALITY AS r(pair, n)"
            )
        return (
            f"SELECT key AS bucket, json_extract(value, '$[0]') AS lo, json_extract(value, '$[1]') AS hi "
            f"FROM json_each({param})"
        )


SQLITE = Dialect(postgres=False)
POSTGRES = Dialect(postgres=True)


def dialect(bind: Connection | Engine) -> Dialect:
    return POSTGRES if bind.dialect.name == "postgresql" else SQLITE


def as_date(value: object) -> date | None:
    """A stored day (ISO text, a date or NULL) as a date."""
    return None if value is None else as_day(value)


def as_day(value: object) -> date:
    """`as_date` of a day that is never NULL: a NOT NULL column, or one its query keeps from NULL."""
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def as_text(value: object) -> str | None:
    """A stored moment or day (or NULL) as the ISO text the store writes (SQLite keeps exactly that text)."""
    return None if value is None else as_iso(value)


def as_iso(value: object) -> str:
    """`as_text` of a moment or day that is never NULL: a NOT NULL column, or one its query keeps from NULL."""
    if isinstance(value, str):
        return value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)
