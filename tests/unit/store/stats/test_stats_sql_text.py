"""The stats' SQL texts are parsed once per text and result columns, and each reading still gets
its own parameters."""

from __future__ import annotations

from datetime import date

from sqlalchemy import create_engine

from drill.store.stats.scope import Scope
from drill.store.stats.sql import _statement, counts, measures, rows
from drill.store.tables import item


def test_the_same_text_and_columns_are_parsed_once() -> None:
    sql = "SELECT :n AS n"
    assert _statement(sql, counts("n")) is _statement(sql, counts("n"))
    assert _statement(sql, counts("n")) is not _statement(sql, measures("n"))  # another result type
    assert _statement(sql, counts("n")) is not _statement(sql, (item.c.id,))  # a table's column
    assert _statement(sql, counts("n")) is not _statement("SELECT :n AS m", counts("n"))


def test_a_kept_statement_reads_each_call_s_parameters() -> None:
    engine = create_engine("sqlite://")
    scope = Scope(today=date(2026, 11, 27))
    try:
        with engine.connect() as connection:
            assert rows(connection, "SELECT :n AS n", scope, counts("n"), n=2)[0].n == 2
            assert rows(connection, "SELECT :n AS n", scope, counts("n"), n=5)[0].n == 5
            assert rows(connection, "SELECT :today AS n", scope, measures("n"))[0].n == "2026-11-27"
    finally:
        engine.dispose()
