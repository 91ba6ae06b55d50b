"""The interview forecast's record on PostgreSQL equals the same history's on SQLite: first tries,
what answers scored, the recalibration of recall, the pace of study and the plan's readiness."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from helpers.clock import FIXED_NOW, Clock

from drill.config import Config
from drill.paths import Paths
from drill.store.forecast import plan_reach, recent_pace, records
from drill.study import Study
from drill.study.writes import write_estimate, write_grade


def record(home) -> tuple:
    """Four days of the queue (every fourth card Again, every other estimate wrong), then the record."""
    home.mkdir(parents=True)
    (home / "config.toml").write_text('scheduler = "fsrs"\ninterview_date = 2026-12-20\n')
    clock = Clock()
    study = Study.open(Paths(home), clock, random.Random(6))
    try:
        for day in range(4):
            clock.now = FIXED_NOW + timedelta(days=2 * day)
            for n, card in enumerate(study.reviews.cards(study.reviews.queue())):
                if card.kind == "estimate":
                    problem = study.estimation.new_problem(card.item_id)
                    attempt = study.estimation.answer(problem, problem.pretty if n % 2 else "1 byte", 40.0)
                    write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())
                elif card.kind != "coding":
                    write_grade(study, study.reviews.grade(card, 1 if n % 4 == 3 else 3, 4000))
        study.drain()
        today = (clock.now + timedelta(days=1)).date()
        config = Config.load(home / "config.toml")
        reach = plan_reach(study.engine, config, today, study.fsrs_settings, 15)
        assert reach is not None
        return records(study.engine, "fsrs"), recent_pace(study.engine, today), reach.model_dump(mode="json")
    finally:
        study.close()


@pytest.mark.slow
def test_the_record_on_postgres_equals_sqlites(pg_url, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DRILL_DB_URL")
    on_sqlite = record(tmp_path / "lite")
    monkeypatch.setenv("DRILL_DB_URL", pg_url)
    on_postgres = record(tmp_path / "pg")
    assert not (tmp_path / "pg" / "drill.db").exists()
    sections_lite, pace_lite, reach_lite = on_sqlite
    sections_pg, pace_pg, reach_pg = on_postgres
    assert sections_lite["grill"].first_try > 0 and sections_lite["estimate"].failed.mean < 0.5  # something to compare
    assert sections_lite["grill"].recall.shift != 0.0
    for section, lite in sections_lite.items():
        pg = sections_pg[section]
        assert pg.first_try == pytest.approx(lite.first_try)
        assert (pg.passed.mean, pg.failed.mean) == pytest.approx((lite.passed.mean, lite.failed.mean))
        assert (pg.recall.shift, pg.recall.tilt) == pytest.approx((lite.recall.shift, lite.recall.tilt), abs=1e-9)
        assert (pg.recall.item, pg.recall.doubt) == pytest.approx((lite.recall.item, lite.recall.doubt), abs=1e-9)
        assert pg.offsets == pytest.approx(lite.offsets)  # the same reviews in the same order
    assert pace_pg == pace_lite
    assert reach_pg == reach_lite
