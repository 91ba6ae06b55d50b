"""DRILL_DB_URL: the migrations on PostgreSQL, concurrent first opens, and the one-line error."""

from __future__ import annotations

import sys

import pytest
from helpers.together import at_once
from sqlalchemy import Boolean, Date, DateTime, Float, Integer, String, TypeDecorator, inspect, text

import drill.store.transactions
from drill.cli import main
from drill.paths import Paths
from drill.store.engine import open_engine, open_store
from drill.store.migrations import ALEMBIC_TABLE, HEAD, LEGACY_TABLE, SCHEMA_VERSION, NewerDatabaseError, migrate
from drill.store.transactions import writing

KINDS = (Boolean, DateTime, Date, Float, Integer, String)  # no one of them subclasses another


def kind(column_type) -> type:
    """The type's family (SQLite's and PostgreSQL's names differ; the family must not)."""
    if isinstance(column_type, TypeDecorator):
        column_type = column_type.impl
    return next(kind for kind in KINDS if isinstance(column_type, kind))


def columns(engine) -> dict[str, dict[str, tuple[type, bool]]]:
    """Per table, each column's type family and nullability (a primary key is never null, whatever
    SQLite's catalog says of an INTEGER PRIMARY KEY)."""
    inspector = inspect(engine)
    found = {}
    for table in inspector.get_table_names():
        if table in (ALEMBIC_TABLE, LEGACY_TABLE):
            continue
        keys = set(inspector.get_pk_constraint(table)["constrained_columns"])
        found[table] = {
            c["name"]: (kind(c["type"]), c["nullable"] and c["name"] not in keys) for c in inspector.get_columns(table)
        }
    return found


def version(engine) -> str:
    with engine.connect() as connection:
        return connection.execute(text(f"SELECT version_num FROM {ALEMBIC_TABLE}")).scalar_one()


def test_an_empty_database_migrates_to_the_same_schema_as_sqlite(pg_url, drill_home, tmp_path) -> None:
    engine = open_store(Paths(drill_home))
    sqlite = open_engine(tmp_path / "same.db")
    try:
        assert engine.dialect.name == "postgresql"
        assert columns(engine) == columns(sqlite)  # every table, column, type family and nullability
        assert version(engine) == HEAD
        with engine.connect() as connection:  # the boolean defaults are booleans, ids come from the server
            connection.execute(
                text("""INSERT INTO mock_round (started_at, problems, time_limit_s, blocks)
                VALUES (now(), 1, 60, '[]')""")
            )
            assert connection.execute(text("SELECT id, abandoned FROM mock_round")).one() == (1, False)
            timestamps = {c["name"]: c["type"] for c in inspect(connection).get_columns("review")}
            assert timestamps["reviewed_at"].timezone  # aware UTC moments
            connection.rollback()
    finally:
        engine.dispose()
        sqlite.dispose()
    assert not (drill_home / "drill.db").exists()  # no SQLite file beside it


def test_a_database_from_before_alembic_is_stamped_and_upgraded(pg_url, drill_home) -> None:
    engine = open_store(Paths(drill_home))
    with writing(engine) as connection:  # as a drill before Alembic left it at schema 7
        connection.execute(text(f"DROP TABLE {ALEMBIC_TABLE}"))
        connection.execute(text("DROP TABLE schedule_event"))
        connection.execute(text("DROP TRIGGER review_counted ON review"))  # revision 0014's counters
        connection.execute(text("DROP TRIGGER item_block_moves_days ON item"))
        connection.execute(text("DROP FUNCTION review_counted, item_block_moves_days"))
        connection.execute(text("DROP TABLE review_day"))
        connection.execute(text("DROP INDEX ix_estimate_by_error, ix_estimate_time, ix_estimate_slip, ix_coding_stats"))
        connection.execute(text("DROP INDEX ix_coding_time"))  # revision 0016's
        connection.execute(text("DROP INDEX ix_item_kind"))  # revision 0017's
        connection.execute(text("ALTER TABLE item DROP COLUMN lapse_count"))
        connection.execute(text("ALTER TABLE mock_interview DROP COLUMN predicted_score"))
        connection.execute(text("ALTER TABLE item DROP COLUMN errata"))
        connection.execute(text("ALTER TABLE review DROP COLUMN typed_answer"))
        connection.execute(text("ALTER TABLE review DROP COLUMN ticked"))
        connection.execute(text("ALTER TABLE review DROP COLUMN cram"))
        connection.execute(text("ALTER TABLE item DROP COLUMN siblings"))  # and the indexes holding it
        connection.execute(text("DROP INDEX ix_review_lapse"))  # ix_review_cram went with the cram column
        connection.execute(
            text("CREATE INDEX ix_item_due ON item (retired, suspended, due_day, kind, block, position, id)")
        )
        connection.execute(
            text("CREATE INDEX ix_item_new ON item (retired, suspended, last_review_day, kind, block, position, id)")
        )
        connection.execute(text(f"CREATE TABLE {LEGACY_TABLE} (version INTEGER NOT NULL)"))
        connection.execute(text(f"INSERT INTO {LEGACY_TABLE} (version) VALUES (7)"))
        connection.execute(text("INSERT INTO store_fact (key, value) VALUES ('kept', 'yes')"))
    engine.dispose()
    engine = open_store(Paths(drill_home))
    try:
        assert version(engine) == HEAD
        with engine.connect() as connection:
            assert connection.execute(text("SELECT value FROM store_fact WHERE key = 'kept'")).scalar_one() == "yes"
            assert connection.execute(text(f"SELECT version FROM {LEGACY_TABLE}")).scalar_one() == SCHEMA_VERSION
        assert "errata" in {c["name"] for c in inspect(engine).get_columns("item")}
    finally:
        engine.dispose()


def test_reopening_migrates_nothing(pg_url, drill_home, monkeypatch) -> None:
    paths = Paths(drill_home)
    engine = open_store(paths)
    with writing(engine) as connection:
        connection.execute(text("INSERT INTO store_fact (key, value) VALUES ('kept', 'yes')"))
    engine.dispose()

    def refuse(_connection):
        raise AssertionError("a current database must not be migrated again")

    monkeypatch.setattr(drill.store.transactions, "migrate", refuse)
    again = open_store(paths)
    try:
        assert version(again) == HEAD
        with again.connect() as connection:
            assert connection.execute(text("SELECT value FROM store_fact WHERE key = 'kept'")).scalar_one() == "yes"
        with writing(again) as connection:
            assert migrate(connection) == 0
    finally:
        again.dispose()


def test_first_opens_from_several_machines_at_once_migrate_once(pg_url, tmp_path) -> None:
    homes = [Paths(tmp_path / f"machine-{number}") for number in range(4)]
    engines, errors = at_once([lambda home=home: open_store(home) for home in homes])
    try:
        assert errors == []
        assert version(engines[0]) == HEAD
        with engines[0].connect() as connection:
            assert connection.execute(text(f"SELECT COUNT(*) FROM {ALEMBIC_TABLE}")).scalar_one() == 1
    finally:
        for engine in engines:
            engine.dispose()


def test_a_newer_database_is_refused(pg_url, drill_home) -> None:
    engine = open_store(Paths(drill_home))
    with writing(engine) as connection:
        connection.execute(text(f"UPDATE {ALEMBIC_TABLE} SET version_num = '{SCHEMA_VERSION + 1:04d}'"))
    engine.dispose()
    with pytest.raises(NewerDatabaseError, match="newer"):
        open_store(Paths(drill_home))


def closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def test_a_server_that_refuses_is_one_line_with_the_password_masked(monkeypatch, capsys) -> None:
    url = f"postgresql://someone:s3cret@127.0.0.1:{closed_port()}/drill"
    monkeypatch.setenv("DRILL_DB_URL", url)
    assert main(["stats", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        f"drill: cannot open DRILL_DB_URL postgresql://someone:***@127.0.0.1:{url.rsplit(':', 1)[1]}: "
    )
    assert captured.err.count("\n") == 1 and "s3cret" not in captured.err and "Traceback" not in captured.err


def test_a_missing_driver_is_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now fails
    monkeypatch.setenv("DRILL_DB_URL", "postgresql+psycopg://me:pw@db.example/drill")
    assert main(["stats", "--json"]) == 2
    assert capsys.readouterr().err == (
        "drill: cannot open DRILL_DB_URL postgresql+psycopg://me:***@db.example/drill: "
        "the psycopg driver is not installed (pip install 'drill[postgres]')\n"
    )


def test_an_unknown_scheme_is_refused_not_ignored(monkeypatch, capsys, drill_home) -> None:
    monkeypatch.setenv("DRILL_DB_URL", "mysql://me@db.example/drill")
    assert main(["stats"]) == 2
    assert capsys.readouterr().err == (
        "drill: cannot open DRILL_DB_URL mysql://me@db.example/drill: "
        "it must start with postgresql:// or postgresql+psycopg://\n"
    )
    assert not (drill_home / "drill.db").exists()


def test_locate_names_the_database_url_masked(monkeypatch, capsys) -> None:
    monkeypatch.setenv("DRILL_DB_URL", "postgresql://me:pw@db.example:5432/drill")
    assert main(["locate"]) == 0
    lines = dict(line.split(maxsplit=1) for line in capsys.readouterr().out.splitlines())
    assert lines["database"] == "postgresql://me:***@db.example:5432/drill"
