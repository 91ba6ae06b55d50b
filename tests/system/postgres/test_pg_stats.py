"""The figures on PostgreSQL equal those of the same history on SQLite: every stats report (each
period and block), the home counts, the queue, the mock-round and drill lists, `drill stats
--json` and `drill scheduler compare --json`."""

from __future__ import annotations

import json

import pytest
from helpers.clock import Clock
from helpers.study_history import as_json, build_history, content, figures, open_study

import drill.study
from drill.cli import main

REAL_OPEN = drill.study.Study.open.__func__  # `drill` opens the study itself: tests point it at theirs


def cli_json(capsys, monkeypatch, paths, clock, *argv: str) -> dict:
    """A command's JSON, with `drill` opening the study on `paths` and `clock`."""
    with monkeypatch.context() as patch:
        patch.setattr(drill.study.Study, "open", classmethod(lambda cls, *a, **k: REAL_OPEN(cls, paths, clock)))
        patch.setenv("DRILL_HOME", str(paths.home))
        assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def everything(capsys, monkeypatch, paths) -> dict:
    clock = Clock()
    build_history(paths, clock)
    study = open_study(paths, clock)
    try:
        found = figures(study)
    finally:
        study.close()
    found["drill stats --json"] = cli_json(capsys, monkeypatch, paths, clock, "stats", "--json", "--period", "all")
    found["drill scheduler compare"] = cli_json(capsys, monkeypatch, paths, clock, "scheduler", "compare", "--json")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("scheduler, interview", [("sm2", None), ("fsrs", "2026-12-01")])
def test_figures_on_postgres_equal_the_same_history_on_sqlite(
    pg_url, tmp_path, monkeypatch, capsys, scheduler, interview
) -> None:
    monkeypatch.delenv("DRILL_DB_URL")
    on_sqlite = everything(
        capsys, monkeypatch, content(tmp_path / "lite-home", tmp_path / "lite", scheduler, interview)
    )
    monkeypatch.setenv("DRILL_DB_URL", pg_url)
    on_postgres = everything(capsys, monkeypatch, content(tmp_path / "pg-home", tmp_path / "pg", scheduler, interview))
    assert not (tmp_path / "pg-home" / "drill.db").exists()

    # The history reaches every kind of figure, so the comparison below compares something.
    whole = on_sqlite["reports"]["None/None"]
    assert whole["activity"]["reviews"] > 40 and whole["activity"]["streak"]["days_studied"] == 11
    assert whole["readiness"]["mature"] > 0 and whole["readiness"]["recall"] is not None
    assert whole["retention"]["365"]["young"]["reviews"] > 0
    assert whole["retention"]["365"]["mature"]["reviews"] > 0 or scheduler == "fsrs"  # FSRS reviews them later
    assert whole["estimation"]["attempts"] > 8 and whole["estimation"]["median_log_error"] is not None
    assert whole["mock_rounds"]["count"] == 2 and whole["coding"]["attempts"] == 2
    assert any(rung["reviews"] for rung in whole["pitch"])
    assert (whole["load"]["plan"] is not None) == (interview is not None)
    assert on_sqlite["home"]["reviews_total"] == whole["activity"]["reviews"] and on_sqlite["rounds"]

    assert as_json(on_postgres) == as_json(on_sqlite)


@pytest.mark.slow
def test_on_postgres_every_figure_is_read_from_one_snapshot(pg_url, tmp_path, monkeypatch) -> None:
    """REPEATABLE READ for the stats read, as SQLite's single read transaction gives."""
    from sqlalchemy import text

    import drill.store.stats.figures as figures_module

    seen = []
    real_forecast = figures_module.forecast

    def forecast(connection, scope):
        seen.append(connection.execute(text("SHOW transaction_isolation")).scalar_one())
        return real_forecast(connection, scope)

    monkeypatch.setattr(figures_module, "forecast", forecast)
    clock = Clock()
    paths = content(tmp_path / "pg-home", tmp_path / "pg", "sm2", None)
    study = open_study(paths, clock)
    try:
        figures(study)
    finally:
        study.close()
    assert seen and set(seen) == {"repeatable read"}
