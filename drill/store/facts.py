"""Named facts about the store itself (table store_fact): which scheduler set the due days,
which content the items were last synced from, the FSRS parameters fitted to its reviews."""

from __future__ import annotations

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select

from drill.store.tables import store_fact

SCHEDULER = "scheduler"
CONTENT = "content_fingerprint"
FSRS_PARAMETERS = "fsrs_parameters"  # JSON list of floats (drill.store.fsrs_parameters)

READ = select(store_fact.c.value).where(store_fact.c.key == bindparam("key"))
FORGET = delete(store_fact).where(store_fact.c.key == bindparam("key"))


def read_fact(engine: Engine, key: str) -> str | None:
    with engine.connect() as connection:
        return connection.execute(READ, {"key": key}).scalar()


def write_fact(connection: Connection, key: str, value: str | None) -> None:
    """Set (or, with None, forget) a fact inside the caller's write transaction."""
    connection.execute(FORGET, {"key": key})
    if value is not None:
        connection.execute(insert(store_fact), {"key": key, "value": value})
