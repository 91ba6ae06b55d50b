"""Transactions both stores use: a write transaction, and bringing a database up to the schema."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from sqlalchemy import Connection, Engine

from drill.store.migrations import migrate, up_to_date


def writing(engine: Engine) -> AbstractContextManager[Connection]:
    """A transaction that holds the write lock from its first statement and commits on exit."""
    return engine.execution_options(write=True).begin()


def migrated(
    engine: Engine,
    before_upgrade: Callable[[], None] = lambda: None,
    on_revision: Callable[[int, int], object] = lambda _step, _of: None,
) -> Engine:
    """Bring the database up to the current schema (a write transaction only when it is behind,
    after `before_upgrade()`), telling `on_revision` as each revision of an upgrade begins
    (drill.store.migrations.migrate)."""
    try:
        with engine.connect() as connection:
            current = up_to_date(connection)
        if not current:
            before_upgrade()
            with writing(engine) as connection:
                migrate(connection, on_revision)
    except BaseException:
        engine.dispose()
        raise
    return engine
