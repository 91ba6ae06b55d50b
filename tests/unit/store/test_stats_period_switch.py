"""A period switch keeps the figures no period changes (readiness and calibration, the forecast, the
leeches, the mock interviews): read once a visit, they come out as a fresh load gives them, and
only the period's figures are read again, none of them by reading every item."""

from __future__ import annotations

import re

import pytest
from helpers.stats_history import make_history, open_history
from sqlalchemy import event

from drill.stats.report import PERIODS, load_report
from drill.store.stats import figures


def _json(report) -> dict:
    return report.model_dump(mode="json")


def test_each_period_after_another_is_what_a_fresh_load_gives(drill_home, tmp_path, clock) -> None:
    study = open_history(make_history(drill_home, tmp_path, clock), clock)
    try:
        for block in (None, "memory"):
            shown = load_report(study, 30, block)
            for period in (*PERIODS, PERIODS[0]):
                shown = load_report(study, period, block, shown)
                assert _json(shown) == _json(load_report(study, period, block))
    finally:
        study.close()


def test_a_switch_reads_no_period_independent_figure_again(drill_home, tmp_path, clock, monkeypatch) -> None:
    study = open_history(make_history(drill_home, tmp_path, clock), clock)
    try:
        shown = load_report(study, 30)

        def read_again(*_args, **_kwargs):
            raise AssertionError("read again on a period switch")

        for name in ("readiness", "forecast", "interview_figures"):
            monkeypatch.setattr(figures, name, read_again)
        monkeypatch.setattr("drill.store.stats.steering.current_leeches", read_again)
        switched = load_report(study, 7, None, shown)
        assert switched.scope.period == 7 and switched.readiness == shown.readiness
        with pytest.raises(AssertionError, match="read again"):
            load_report(study, 7, "memory", shown)  # another block: its own figures
    finally:
        study.close()


@pytest.mark.parametrize("block", [None, "memory"])
def test_a_switch_never_reads_every_item(drill_home, tmp_path, clock, block) -> None:
    """The pitches, estimation families and coding drills a switch reads are found through
    ix_item_kind: no statement of a switch reads the item table (or an index of it) through."""
    study = open_history(make_history(drill_home, tmp_path, clock), clock)
    sent: list[tuple[str, object]] = []

    def keep(_connection, _cursor, statement, parameters, _context, _many) -> None:
        sent.append((statement, parameters))

    try:
        shown = load_report(study, 30, block)
        event.listen(study.engine, "before_cursor_execute", keep)
        load_report(study, 365, block, shown)
        event.remove(study.engine, "before_cursor_execute", keep)
        with study.engine.connect() as connection:
            scans = [
                (plan, " ".join(statement.split())[:120])
                for statement, parameters in sent
                if not statement.lstrip().upper().startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA"))
                for *_, plan in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
                if re.match(r"SCAN (item|i)\b", plan)
            ]
    finally:
        study.close()
    assert len(sent) > 5 and scans == []
