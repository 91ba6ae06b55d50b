"""The SQLite store: pragmas, migrations, content sync, grades and undo."""

import shutil
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

from helpers.content import write_deck
from sqlalchemy import inspect, text

from drill.content.decks import load_decks
from drill.schedule.grading import ItemState
from drill.schedule.records import Grade
from drill.store.engine import open_engine
from drill.store.migrations import HEAD, SCHEMA_VERSION
from drill.store.sync import sync_content
from drill.store.writes import record_grade, undo_grade

FIXTURES = Path(__file__).parents[2] / "fixtures"
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def scalar(engine, sql: str, **params):
    with engine.connect() as connection:
        return connection.execute(text(sql), params).scalar_one()


def test_pragmas(tmp_path: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    assert scalar(engine, "PRAGMA journal_mode") == "wal"
    assert scalar(engine, "PRAGMA foreign_keys") == 1
    assert scalar(engine, "PRAGMA busy_timeout") >= 5000
    assert scalar(engine, "PRAGMA user_version") == SCHEMA_VERSION


def schema(engine) -> dict[str, object]:
    """Every table's columns (name, declared type, nullable, default) and indexes."""
    inspector = inspect(engine)
    return {
        name: (
            [(c["name"], str(c["type"]), c["nullable"], c["default"]) for c in inspector.get_columns(name)],
            sorted((i["name"], tuple(i["column_names"])) for i in inspector.get_indexes(name)),
        )
        for name in sorted(inspector.get_table_names())
    }


def test_a_fresh_database_and_an_upgraded_first_schema_one_are_the_same(tmp_path: Path) -> None:
    fresh = open_engine(tmp_path / "fresh.db")
    shutil.copy(FIXTURES / "schema_v1.sqlite", tmp_path / "old.db")
    upgraded = open_engine(tmp_path / "old.db")
    assert schema(upgraded) == schema(fresh)
    assert "alembic_version" in schema(fresh) and {"item", "review", "mock_interview"} <= set(schema(fresh))
    for engine in (fresh, upgraded):
        assert scalar(engine, "SELECT version_num FROM alembic_version") == HEAD


def test_first_schema_database_upgrades_without_loss(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema_v1.sqlite", path)
    engine = open_engine(path)  # stamped at its user_version 1 by Alembic, then upgraded to HEAD
    assert scalar(engine, "PRAGMA user_version") == SCHEMA_VERSION
    assert scalar(engine, "SELECT version_num FROM alembic_version") == HEAD
    assert scalar(engine, "SELECT COUNT(*) FROM item") == 3
    assert scalar(engine, "SELECT COUNT(*) FROM review") == 3
    assert scalar(engine, "SELECT easiness FROM item WHERE id = 'grill-01'") == 2.6
    assert scalar(engine, "SELECT due_day FROM item WHERE id = 'grill-15'") == "2026-11-07"
    indexes = {
        row[1] for row in sqlite3.connect(path).execute("SELECT type, name FROM sqlite_master WHERE type='index'")
    }
    assert {"ix_item_due", "ix_item_new", "ix_review_item", "ix_review_day"} <= indexes
    # Every row of every first-schema table survives, column for column.
    before = sqlite3.connect(f"file:{FIXTURES / 'schema_v1.sqlite'}?mode=ro", uri=True)
    after = sqlite3.connect(path)
    tables_v1 = [name for (name,) in before.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert {"item", "item_revision", "review"} <= set(tables_v1)
    for table in tables_v1:
        columns = ", ".join(row[1] for row in before.execute(f"PRAGMA table_info({table})"))
        query = f"SELECT {columns} FROM {table} ORDER BY rowid"
        assert after.execute(query).fetchall() == before.execute(query).fetchall(), table


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    sqlite3.connect(path).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    try:
        open_engine(path)
    except Exception as error:  # noqa: BLE001
        assert "newer" in str(error)
    else:
        raise AssertionError("a database from a newer drill must not be opened")


def synced(engine, deck_dir: Path):
    load = load_decks([deck_dir])
    return sync_content(engine, load.items, load.broken_decks, NOW)


def test_sync_adds_edits_retires_and_restores(tmp_path: Path, deck_dir: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    deck = write_deck(deck_dir, "a.toml", [("a-1", "memory"), ("a-2", "compute")])
    assert synced(engine, deck_dir).added == 2

    deck.write_text(deck.read_text().replace("Answer of a-1.", "A better answer."))
    report = synced(engine, deck_dir)
    assert (report.added, report.updated) == (0, 1)
    assert scalar(engine, "SELECT answer FROM item WHERE id='a-1'") == "A better answer."
    assert scalar(engine, "SELECT answer FROM item_revision WHERE item_id='a-1'") == "Answer of a-1."

    write_deck(deck_dir, "a.toml", [("a-1", "memory")])
    assert synced(engine, deck_dir).retired == 1
    assert scalar(engine, "SELECT retired FROM item WHERE id='a-2'") == 1

    write_deck(deck_dir, "a.toml", [("a-1", "memory"), ("a-2", "compute")])
    assert synced(engine, deck_dir).restored == 1
    assert scalar(engine, "SELECT retired FROM item WHERE id='a-2'") == 0


def test_a_broken_deck_retires_nothing(tmp_path: Path, deck_dir: Path) -> None:
    engine = open_engine(tmp_path / "d.db")
    deck = write_deck(deck_dir, "a.toml", [("a-1", "memory")])
    synced(engine, deck_dir)
    deck.write_text(deck.read_text() + "\n[[item]\n")
    assert synced(engine, deck_dir).retired == 0
    assert scalar(engine, "SELECT retired FROM item WHERE id='a-1'") == 0


def test_grade_is_committed_and_undo_restores(tmp_path: Path, deck_dir: Path) -> None:
    path = tmp_path / "d.db"
    engine = open_engine(path)
    write_deck(deck_dir, "a.toml", [("a-1", "memory")])
    synced(engine, deck_dir)
    before = ItemState()
    after = ItemState(1, 1, 2.6, date(2026, 11, 23), date(2026, 11, 22))
    grade = Grade("a-1", 4, 5, 1500, NOW, date(2026, 11, 22), before, after)
    record_grade(engine, grade, lambda _grade, _state: after)
    # A separate connection sees it at once: it was committed, not held.
    other = sqlite3.connect(path)
    assert other.execute("SELECT button, quality, duration_ms, counted, reps_after FROM review").fetchall() == [
        (4, 5, 1500, 1, 1)
    ]
    assert other.execute("SELECT interval, easiness, due_day FROM item").fetchone() == (1, 2.6, "2026-11-23")
    undo_grade(engine, grade, "sm2")
    assert other.execute("SELECT COUNT(*) FROM review").fetchone() == (0,)
    assert other.execute("SELECT interval, easiness, due_day, last_review_day FROM item").fetchone() == (
        0,
        2.5,
        None,
        None,
    )


def test_a_database_from_before_alembic_is_stamped_at_its_version_and_upgraded(tmp_path: Path) -> None:
    """A drill before Alembic wrote schema 7 and kept it in user_version; its rows stay, 8 is added."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from drill.store.migrations import SCRIPTS

    path = tmp_path / "seven.db"
    legacy = create_engine(f"sqlite:///{path}")
    with legacy.begin() as connection:  # revisions 1..7 as the old drill ran them, then its bookkeeping
        config = Config()
        config.set_main_option("script_location", str(SCRIPTS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0007")
        connection.exec_driver_sql("DROP TABLE alembic_version")
        connection.exec_driver_sql("PRAGMA user_version = 7")
        connection.exec_driver_sql("""INSERT INTO item (id, kind, block, topic, deck, position, prompt, answer, source,
            content_hash, created_at, updated_at) VALUES ('kept', 'card', 'memory', 't', 'd', 0, 'p', 'a', 's', 'h',
            '2026-11-01', '2026-11-01')""")
    legacy.dispose()
    engine = open_engine(path)
    assert scalar(engine, "SELECT version_num FROM alembic_version") == HEAD
    assert scalar(engine, "SELECT id FROM item") == "kept"
    assert "errata" in {c["name"] for c in inspect(engine).get_columns("item")}  # revision 8 ran, 1..7 did not again


def test_opening_a_current_database_does_not_import_alembic(tmp_path: Path) -> None:
    import subprocess
    import sys

    open_engine(tmp_path / "d.db").dispose()
    code = (
        "import sys; from drill.store.engine import open_engine; "
        f"open_engine(__import__('pathlib').Path({str(tmp_path / 'd.db')!r})); print('alembic' in sys.modules)"
    )
    assert (
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
        == "False"
    )


def test_revision_11_gives_pitches_their_sibling_group_and_the_queue_indexes_hold_it(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from drill.store.migrations import SCRIPTS

    path = tmp_path / "ten.db"
    legacy = create_engine(f"sqlite:///{path}")
    with legacy.begin() as connection:  # a drill at revision 10 left pitches without a group
        config = Config()
        config.set_main_option("script_location", str(SCRIPTS))
        config.attributes["connection"] = connection
        command.upgrade(config, "0010")
        connection.exec_driver_sql("PRAGMA user_version = 10")
        for id_, kind, siblings in (("p-30", "pitch", None), ("c-1", "card", None), ("c-2", "card", "pair")):
            connection.exec_driver_sql(f"""INSERT INTO item (id, kind, block, topic, deck, position, prompt, answer,
                source, content_hash, created_at, updated_at, siblings) VALUES ('{id_}', '{kind}', 'memory', 'KV',
                'd', 0, 'p', 'a', 's', 'h', '2026-11-01', '2026-11-01', {f"'{siblings}'" if siblings else "NULL"})""")
    legacy.dispose()
    engine = open_engine(path)
    with engine.connect() as connection:
        groups = dict(connection.execute(text("SELECT id, siblings FROM item")).all())
        indexed = {index["name"]: index["column_names"] for index in inspect(connection).get_indexes("item")}
    assert groups == {"p-30": "pitch:KV", "c-1": None, "c-2": "pair"}
    assert indexed["ix_item_due"][-1] == indexed["ix_item_new"][-1] == "siblings"
