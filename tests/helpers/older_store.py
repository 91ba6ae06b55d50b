"""A store an older drill wrote: drill's schema as an earlier revision left it, not yet upgraded."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine

from drill.store.migrations import alembic_config

OLD_REVISION = "0006"  # the revision benchmarks/bench_scale_open.py opens a store at


def older_store(database: Path, revision: str = OLD_REVISION) -> None:
    """Create the database at `database` in the schema of `revision`, with no rows."""
    database.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(f"sqlite:///{database}")
    try:
        with engine.begin() as connection:
            command.upgrade(alembic_config(connection), revision)
            connection.exec_driver_sql(f"PRAGMA user_version = {int(revision)}")  # as that drill kept it
    finally:
        engine.dispose()
