"""A period switch keeps the figures no period changes (readiness and calibration, the forecast, the
leeches, the mock interviews): read once a visit, they come out as a fresh load gives them, and
only the period's figures are read again."""

from __future__ import annotations

import pytest
from helpers.stats_history import make_history, open_history

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
