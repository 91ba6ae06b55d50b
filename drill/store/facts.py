"""Named facts about the store itself (table store_fact): which scheduler set the due days,
which content the items were last synced from, the FSRS parameters fitted to its reviews."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, text

SCHEDULER = "scheduler"
CONTENT = "content_fingerprint"
FSRS_PARAMETERS = "fsrs_parameters"  # JSON list of floats (drill.store.fsrs_parameters)

READ = text("SELECT value FROM store_fact WHERE key = :key")
WRITE = text(
    "INSERT INTO store_fact (key, value) VALUES (:key, :value) ON CONFLICT (key) DO UPDATE SET value = :value"
)
FORGET = text("DELETE FROM store_fact WHERE key = :key")


def read_fact(engine: Engine, key: str) -> str | None:
    with engine.connect() as connection:
        return connection.execute(READ, {"key": key}).scalar()


def write_fact(connection: Connection, key: str, value: str | None) -> None:
    """Set (or, with None, forget) a fact inside the caller's transaction."""
    if value is None:
        connection.execute(FORGET, {"key": key})
    else:
        connection.execute(WRITE, {"key": key, "value": value})
