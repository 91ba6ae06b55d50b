"""One schema: Alembic's revisions, run on an empty database through every revision, build exactly
what the table classes in drill/store/tables.py declare (tables, columns with their types,
nullability and server defaults, indexes, foreign keys), on SQLite and on PostgreSQL.

Alembic's comparison reads no index's WHERE: the indexes are also compared, as each database
reads them back, with those of a database the tables create themselves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from helpers.postgres_server import pg_server, pg_url  # noqa: F401  (the throwaway PostgreSQL server)
from sqlalchemy import Engine, Identity, create_engine, inspect, text

from drill.paths import Paths
from drill.store import tables
from drill.store.engine import open_engine, open_store
from drill.store.tables import METADATA


def drift(engine: Engine) -> list[Any]:
    """What autogenerate would change to make the database match the tables (empty: nothing)."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": True})
        found = compare_metadata(context, METADATA)
        if connection.dialect.name == "sqlite":
            found = _past_sqlite_catalog(connection, found)
    return found


def _past_sqlite_catalog(connection, found: list[Any]) -> list[Any]:
    """Leave out what SQLite's catalog cannot say, checked here by other means:
    - a primary key reads as nullable (SQLite lets a TEXT PRIMARY KEY hold NULL; its
      INTEGER PRIMARY KEY is the rowid, never NULL), and the tables declare primary keys NOT NULL;
    - an INTEGER PRIMARY KEY is SQLite's identity (the rowid), which the catalog does not call one;
    - SQLAlchemy reads no ON DELETE of a foreign key declared on its column: the foreign keys are
      compared with PRAGMA foreign_key_list instead."""
    kept: list[Any] = []
    for change in found:
        if isinstance(change, tuple):  # a table-level change
            if change[0] not in ("remove_fk", "add_fk"):
                kept.append(change)
        else:  # a column's changes
            column = [modify for modify in change if not _catalog_gap(modify)]
            if column:
                kept.append(column)
    stored, wanted = _stored_foreign_keys(connection), _declared_foreign_keys()
    if stored != wanted:
        kept.append(("foreign keys", sorted(stored - wanted), sorted(wanted - stored)))
    return kept


def _catalog_gap(modify: tuple[Any, ...]) -> bool:
    op, _, table, column = modify[:4]
    if not METADATA.tables[table].c[column].primary_key:
        return False
    return op == "modify_nullable" or (op == "modify_default" and isinstance(modify[6], Identity))


def _stored_foreign_keys(connection) -> set[tuple[str, str, str, str, str]]:
    return {
        (table, row["from"], row["table"], row["to"], row["on_delete"])
        for table in METADATA.tables
        for row in connection.execute(text(f"PRAGMA foreign_key_list({table})")).mappings()
    }


def _declared_foreign_keys() -> set[tuple[str, str, str, str, str]]:
    return {
        (table.name, key.parent.name, key.column.table.name, key.column.name, key.ondelete or "NO ACTION")
        for table in METADATA.tables.values()
        for key in table.foreign_keys
    }


@pytest.fixture
def sqlite(tmp_path) -> Iterator[Engine]:
    engine = open_engine(tmp_path / "drill.db")
    yield engine
    engine.dispose()


@pytest.fixture
def postgres(pg_url, drill_home) -> Iterator[Engine]:
    engine = open_store(Paths(drill_home))
    assert engine.dialect.name == "postgresql"
    yield engine
    engine.dispose()


def test_the_revisions_build_the_tables_on_sqlite(sqlite) -> None:
    assert drift(sqlite) == []


def test_the_revisions_build_the_tables_on_postgresql(postgres) -> None:
    assert drift(postgres) == []


def indexes(engine: Engine) -> dict[str, tuple[str, list[str], dict[str, str]]]:
    """Every index as the database reads it back: its table, columns and dialect options (a WHERE)."""
    inspector = inspect(engine)
    return {
        index["name"]: (
            table,
            index["column_names"],
            {key: " ".join(str(value).split()) for key, value in index.get("dialect_options", {}).items()},
        )
        for table in inspector.get_table_names()
        for index in inspector.get_indexes(table)
    }


def test_the_indexes_on_sqlite_are_the_tables_own(sqlite, tmp_path) -> None:
    declared = create_engine(f"sqlite:///{tmp_path / 'declared.db'}")
    METADATA.create_all(declared)
    try:
        assert indexes(sqlite) == indexes(declared)
        assert "sqlite_where" in indexes(sqlite)["ix_review_lapse"][2]  # partial indexes are compared too
    finally:
        declared.dispose()


def test_the_indexes_on_postgresql_are_the_tables_own(postgres, pg_server) -> None:
    declared = create_engine(pg_server.create_database().replace("postgresql://", "postgresql+psycopg://"))
    METADATA.create_all(declared)
    try:
        assert indexes(postgres) == indexes(declared)
        assert "postgresql_where" in indexes(postgres)["ix_review_cram"][2]
    finally:
        declared.dispose()


def test_a_changed_column_is_drift(sqlite, monkeypatch) -> None:
    """The comparison sees types: a column declared with another type is reported."""
    from sqlalchemy import Text

    monkeypatch.setattr(tables.review.c.button, "type", Text())
    assert [change[0][:4] for change in drift(sqlite)] == [("modify_type", None, "review", "button")]
