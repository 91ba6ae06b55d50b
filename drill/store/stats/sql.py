"""Small helpers for the stats queries: running them, the block filter, SQLite's math functions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text

from drill.store.stats.scope import Scope


def rows(connection: Connection, sql: str, scope: Scope, **extra: Any) -> Sequence[Any]:
    return connection.execute(text(sql), {**scope.params(), **extra}).all()


def in_block(scope: Scope, column: str = "item_id") -> str:
    """`AND <column> IN (items of the block)` when a block is chosen, else nothing.

    Two texts rather than `:block IS NULL OR …`, so SQLite plans each case on its own index.
    """
    return "" if scope.block is None else f"AND {column} IN (SELECT id FROM item WHERE block = :block)"


def item_block(scope: Scope, table: str = "item") -> str:
    return "" if scope.block is None else f"AND {table}.block = :block"


def ensure_math(connection: Connection) -> None:
    """Predicted recall needs pow(); SQLite builds without the math functions get Python's."""
    try:
        connection.execute(text("SELECT pow(0.9, 0.5)"))
    except Exception:  # sqlite3.OperationalError: no such function
        connection.rollback()
        raw = connection.connection.driver_connection
        raw.create_function("pow", 2, math.pow, deterministic=True)


def ratio(part: int | float | None, whole: int | float | None) -> float | None:
    return None if not whole else float(part or 0) / float(whole)
