"""Small helpers for the stats queries: running those written as SQL text, the block filter (in text
and in Core statements), SQLite's math functions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnClause, ColumnElement, Connection, Float, Integer, Table, TextualSelect, column, text
from sqlalchemy.exc import OperationalError

from drill.schedule.memory import ExponentialRecall, RecallCurve
from drill.store.dialect import Dialect
from drill.store.stats.scope import Scope
from drill.store.tables import item

ITEM_MEMORY = {"interval": "interval", "stability": "fsrs_stability"}  # an item's memory now
MEMORY_BEFORE = {"interval": "interval_before", "stability": "fsrs_stability_before"}  # a review row's, before it


def rows(
    connection: Connection, sql: str, scope: Scope, columns: Sequence[ColumnElement[Any]], **extra: Any
) -> Sequence[Any]:
    """The rows of the SQL text `sql`, whose result columns are `columns` in order: the tables' own
    where a result is a stored column, else named and typed (`counts`, `measures`)."""
    return connection.execute(_statement(sql, columns), {**scope.params(), **extra}).all()


_STATEMENTS: dict[tuple[str, tuple[tuple[str, str, str], ...]], TextualSelect] = {}
_KEPT = 512  # distinct texts kept: the figures' texts vary with the families and buckets a period has


def _statement(sql: str, columns: Sequence[ColumnElement[Any]]) -> TextualSelect:
    """`sql` with its result columns, parsed once (SQLAlchemy reads every bind name with a regular
    expression, as long as the text is): the same text and columns give the same statement."""
    key = (sql, tuple(_result_key(result) for result in columns))
    statement = _STATEMENTS.get(key)
    if statement is None:
        if len(_STATEMENTS) >= _KEPT:
            _STATEMENTS.clear()
        statement = _STATEMENTS[key] = text(sql).columns(*columns)
    return statement


def _result_key(result: ColumnElement[Any]) -> tuple[str, str, str]:
    """What a result column is to a statement: its table (if any), name and type."""
    table = getattr(result, "table", None)
    return (table.name if table is not None else "", result.key or "", repr(result.type))


def counts(*names: str) -> tuple[ColumnClause[int], ...]:
    """Result columns that count (or sum counts)."""
    return tuple(column(name, Integer) for name in names)


def measures(*names: str) -> tuple[ColumnClause[float], ...]:
    """Result columns that measure (means, sums of times or scores, predictions)."""
    return tuple(column(name, Float) for name in names)


def in_block(scope: Scope, column: str = "item_id") -> str:
    """`AND <column> IN (items of the block)` when a block is chosen, else nothing.

    Two texts rather than `:block IS NULL OR …`, so SQLite plans each case on its own index.
    """
    return "" if scope.block is None else f"AND {column} IN (SELECT id FROM item WHERE block = :block)"


def item_block(scope: Scope, table: str = "item") -> str:
    return "" if scope.block is None else f"AND {table}.block = :block"


def of_block(scope: Scope, items: Table = item) -> tuple[ColumnElement[bool], ...]:
    """`item_block` in a Core statement: the condition on the items' block, when one is chosen."""
    return () if scope.block is None else (items.c.block == scope.block,)


def predicted_recall(sql: Dialect, curve: RecallCurve, elapsed: str, memory: str) -> tuple[str, dict[str, float]]:
    """SQL of a memory model's predicted recall `elapsed` days on, from the `memory` column, with its parameters."""
    if isinstance(curve, ExponentialRecall):
        return f"pow(:recall_base, {elapsed} / {sql.greatest(memory, '1')})", {"recall_base": curve.base}
    recall = f"pow(1 + :recall_factor * {elapsed} / {memory}, -:recall_decay)"
    return recall, {"recall_factor": curve.factor, "recall_decay": curve.decay}


def ensure_math(connection: Connection) -> None:
    """Predicted recall needs pow(); SQLite builds without the math functions get Python's."""
    try:
        connection.execute(text("SELECT pow(0.9, 0.5)"))
    except OperationalError:  # no such function
        connection.rollback()
        raw = connection.connection.driver_connection
        assert raw is not None  # a connection in use holds its driver's connection
        raw.create_function("pow", 2, math.pow, deterministic=True)


def ratio(part: int | float | None, whole: int | float | None) -> float | None:
    return None if not whole else float(part or 0) / float(whole)
