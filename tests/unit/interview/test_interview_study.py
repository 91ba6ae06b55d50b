"""Mock interviews through the study layer: drawing from the real content, every write through
the one writer, history read back, the setup remembered in config.toml, the CLI listings."""

import json
import random
import sqlite3

import pytest
from helpers.interview import run_interview

from drill.cli import main
from drill.config import Config
from drill.interview.settings import InterviewSettings
from drill.paths import Paths
from drill.store.interviews import interview_history
from drill.study import Study


@pytest.fixture
def study(drill_home, clock):
    study = Study.open(Paths(drill_home), clock, random.Random(3))
    yield study
    study.close()


def rows(study: Study, sql: str) -> list[tuple]:
    study.drain()
    connection = sqlite3.connect(study.paths.database)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def test_an_interview_draws_from_the_real_content_and_stores_every_answer_as_a_review(study) -> None:
    settings = InterviewSettings(minutes=20, grill=2, pitch_seconds=120, estimates=2)
    card = run_interview(study, settings)
    sections = [section for section, _ in card.items]
    assert sections == ["grill", "grill", "pitch", "estimate", "estimate"]
    assert all(item.startswith("grill-") for section, item in card.items if section == "grill")
    assert rows(study, "SELECT seconds_allowed, ended, abandoned, finished_at IS NOT NULL FROM mock_interview") == [
        (1200, "done", 0, 1)
    ]
    assert rows(study, "SELECT grill_score, pitch_score, estimate_score, coding_score FROM mock_interview") == [
        (pytest.approx(2 / 3), pytest.approx(2 / 3), 1.0, None)
    ]
    answered = rows(
        study,
        """SELECT a.section, a.item_id, r.item_id FROM mock_interview_answer a
        JOIN review r ON r.id = a.review_id ORDER BY a.position""",
    )
    assert [(section, item) for section, item, _ in answered] == list(card.items)
    assert all(item == reviewed for _, item, reviewed in answered)  # each answer points at its own review
    assert rows(study, "SELECT COUNT(*) FROM estimate_attempt WHERE review_id IS NOT NULL") == [(2,)]
    due = rows(
        study,
        "SELECT COUNT(*) FROM item WHERE due_day > '2026-11-22' AND id IN ("
        + ", ".join(f"'{item}'" for _, item in card.items)
        + ")",
    )
    assert due == [(5,)]  # every item's due day moved on

    [stored] = interview_history(study.engine)
    assert stored.interview_id == card.interview_id and stored.ended == "done"
    assert stored.answers == card.answers and stored.items == card.items
    assert stored.score == pytest.approx(card.score)
    assert stored.started_at.startswith("2026-11-22T15:00")


def test_an_interview_cut_off_before_its_end_reads_as_abandoned(study) -> None:
    plan = study.interviews.plan(InterviewSettings(grill=1, pitch_seconds=0, estimates=0))
    study.interviews.start(plan).result()
    [stored] = interview_history(study.engine)
    assert stored.ended == "abandoned" and stored.answers == ()


def test_the_setup_is_remembered_in_config(study, drill_home) -> None:
    settings = InterviewSettings(minutes=30, grill=1, pitch_seconds=0, estimates=5, coding=True)
    study.remember(settings.config_values())
    assert InterviewSettings.from_config(Config.load(drill_home / "config.toml")) == settings
    assert InterviewSettings.from_config(study.config) == settings
    text = (drill_home / "config.toml").read_text()
    assert "[mock_interview]\nminutes = 30\n" in text and "\ncoding = true\n" in text


def test_the_cli_lists_interviews_and_stats_carry_them(study, capsys) -> None:
    card = run_interview(study, InterviewSettings(grill=1, pitch_seconds=30, estimates=1))
    abandoned = run_interview(study, InterviewSettings(grill=1, pitch_seconds=0, estimates=0), ended="abandoned")
    study.drain()
    assert main(["mock", "--history", "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    listed = both["interviews"]
    assert both["rounds"] == []
    assert [entry["id"] for entry in listed] == [abandoned.interview_id, card.interview_id]
    assert listed[1]["sections"]["pitch"] == {"planned": 1, "answered": 1, "score": 0.6667, "seconds": 45.0}
    assert [answer["item_id"] for answer in listed[1]["answers"]] == [item for _, item in card.items]
    assert listed[0]["abandoned"] and listed[0]["ended"] == "abandoned"

    assert main(["mock", "--history"]) == 0
    heading, *lines, _, round_heading, no_round = capsys.readouterr().out.splitlines()
    assert (heading, round_heading) == ("Mock interviews", "Mock estimation rounds")
    assert len(lines) == 2 and "abandoned" in lines[0] and "grill questions 67% (1/1)" in lines[1]
    assert lines[1].startswith("2026-11-22 15:00 ")  # local time (this test runs in UTC)
    assert no_round.startswith("none yet")

    assert main(["stats", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["mock_interviews"]
    assert figures["count"] == 2 and figures["finished"] == 1 and figures["abandoned"] == 1
    assert figures["best_score"] == pytest.approx(card.score, abs=1e-4)
    assert figures["by_section"]["grill"] == pytest.approx(2 / 3, abs=1e-4)
    assert [entry["id"] for entry in figures["interviews"]] == [abandoned.interview_id, card.interview_id]
    assert figures["interviews"][1]["answered"] == 3


def test_the_cli_lists_interviews_in_local_time(study, capsys, in_kolkata) -> None:
    run_interview(study, InterviewSettings(grill=1, pitch_seconds=0, estimates=0))
    study.drain()
    assert main(["mock", "--history"]) == 0
    assert capsys.readouterr().out.startswith("Mock interviews\n2026-11-22 20:30 ")  # 15:00 UTC
    assert main(["mock", "--history", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["interviews"]
    assert listed[0]["started_at"].startswith("2026-11-22T15:00")  # JSON: UTC


def test_drill_mock_runs_the_tui_on_the_interview_setup(drill_home, monkeypatch) -> None:
    from drill.tui.app import DrillApp

    started = []
    monkeypatch.setattr(DrillApp, "run", lambda self: started.append((self.start_interview, self.start_review)))
    assert main(["mock"]) == 0
    assert started == [(True, False)]
