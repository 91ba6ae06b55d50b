"""Mock interviews on PostgreSQL: the pool query, every answer pointing at its review, the
history read back, and the stats figures."""

from __future__ import annotations

import random

import pytest
from helpers.interview import run_interview
from sqlalchemy import text

from drill.interview.settings import InterviewSettings
from drill.paths import Paths
from drill.stats.report import load_report
from drill.store.interviews import interview_history
from drill.study import Study


@pytest.mark.slow
def test_an_interview_is_stored_and_read_back(pg_url, drill_home, clock) -> None:
    study = Study.open(Paths(drill_home), clock, random.Random(4))
    try:
        assert study.engine.dialect.name == "postgresql"
        card = run_interview(study, InterviewSettings(grill=2, pitch_seconds=30, estimates=1))
        abandoned = run_interview(study, InterviewSettings(grill=1, pitch_seconds=0, estimates=0), ended="abandoned")
        study.drain()
        with study.engine.connect() as connection:
            linked = (
                connection.execute(
                    text(
                        """SELECT a.item_id = r.item_id FROM mock_interview_answer a JOIN review r ON r.id = a.review_id
                WHERE a.interview_id = :id ORDER BY a.position"""
                    ),
                    {"id": card.interview_id},
                )
                .scalars()
                .all()
            )
            assert linked == [True] * 4
            assert connection.execute(text("SELECT ended, abandoned FROM mock_interview ORDER BY id")).all() == [
                ("done", False),
                ("abandoned", True),
            ]
        history = interview_history(study.engine)
        assert [c.interview_id for c in history] == [abandoned.interview_id, card.interview_id]
        assert history[1].answers == card.answers and history[1].items == card.items
        figures = load_report(study).interviews.model_dump(mode="json")
        assert figures["count"] == 2 and figures["finished"] == 1 and figures["abandoned"] == 1
        assert figures["best_score"] == pytest.approx(card.score, abs=1e-4)
    finally:
        study.close()
