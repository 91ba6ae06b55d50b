"""The Study API on PostgreSQL: content sync, queue, grade, undo, suspend; estimation, mock-round
and coding-drill writes; two machines (two DRILL_HOMEs) sharing one database."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from helpers.content import TestPaths, write_deck
from helpers.study_history import DRILL, content, open_study
from helpers.together import at_once
from sqlalchemy import text

from drill.coding.attempt import CodingAttempt
from drill.content.decks import load_decks
from drill.estimate.rounds import RoundSettings
from drill.paths import Paths
from drill.stats.report import load_report
from drill.store.coding import drill_records
from drill.store.engine import open_store
from drill.store.estimates import finish_round, record_round_attempt, round_history
from drill.store.sync import sync_content
from drill.store.transactions import writing
from drill.store.writes import set_suspended
from drill.study import Study
from drill.study.writes import write_coding, write_estimate, write_grade, write_undo


def rows(study: Study, sql: str, **params) -> list[tuple]:
    with study.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(sql), params)]


@pytest.mark.slow
def test_open_syncs_then_queue_grade_undo_and_suspend_are_stored(pg_url, small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    try:
        assert study.engine.dialect.name == "postgresql" and study.last_sync.added == 6
        assert rows(study, "SELECT COUNT(*) FROM item WHERE retired = FALSE") == [(6,)]
        queue = study.reviews.queue()
        assert len(queue) == 6
        first = study.reviews.cards(queue)[0]
        grade = study.reviews.grade(first, 3, 1_500)
        review_id = write_grade(study, grade)
        assert rows(study, "SELECT id, item_id, button, counted, study_day FROM review") == [
            (review_id, first.item_id, 3, True, date(2026, 11, 22))
        ]
        set_suspended(study.engine, queue[1], True)
    finally:
        study.close()

    again = Study.open(small_paths, clock)  # what was written is read back by a new session
    try:
        assert again.last_sync.added == 0
        state = again.reviews.cards([first.item_id])[0].state
        assert (state.repetitions, state.interval, state.due_day, state.last_review_day) == (
            1,
            1,
            date(2026, 11, 23),
            date(2026, 11, 22),
        )
        assert set(again.reviews.queue()) == set(queue[2:])  # graded today and suspended are out
        home = again.browsing.home()
        assert (home.reviews_total, home.items) == (1, 5)
        write_undo(again, grade)
        assert rows(again, "SELECT COUNT(*) FROM review") == [(0,)]
        assert again.reviews.cards([first.item_id])[0].state == first.state
        set_suspended(again.engine, queue[1], False)
        assert sorted(again.reviews.queue()) == sorted(queue)  # the grade undone, the suspension lifted
    finally:
        again.close()
    assert not small_paths.database.exists()  # nothing went to a SQLite file


def test_estimate_mock_round_and_coding_writes(pg_url, drill_home, tmp_path, clock) -> None:
    study = open_study(content(drill_home, tmp_path / "content"), clock)
    try:
        card = study.reviews.cards(["estimate:kv-cache"])[0]
        attempt = study.estimation.answer(study.estimation.new_problem(card.item_id), "not a number", 12.5)
        review_id = write_estimate(study, study.reviews.grade_estimate(card, attempt), attempt.row())
        assert rows(study, "SELECT review_id, mock_round_id, answer, score, seconds FROM estimate_attempt") == [
            (review_id, None, "not a number", 0.0, 12.5)
        ]

        round_id, problems = study.estimation.start_round(RoundSettings(problems=2, minutes=3, blocks=("inference",)))
        record_round_attempt(study.engine, round_id, study.estimation.answer(problems[0], "1 GB", 40.0).row())
        clock.now += timedelta(minutes=2)
        finish_round(study.engine, round_id, study.clock(), 0.25, abandoned=False)
        [past] = round_history(study.engine)
        assert (
            past.id,
            past.started_at[:16],
            past.problems,
            past.answered,
            past.time_limit_s,
            past.seconds,
            past.score,
            past.abandoned,
        ) == (round_id, "2026-11-22T15:00", 2, 1, 180, 120.0, 0.25, False)

        drill = study.reviews.cards([DRILL])[0]
        run = CodingAttempt(DRILL, clock(), clock(), "fail", 1, 2, "cpu", 0, 200.0, None, "w")
        assert write_coding(study, run, None) is None
        passed = write_coding(
            study,
            replace(run, status="pass", passed=3, failed=0, seconds=450.0, hints_used=1, speed_ratio=1.5),
            study.drills.grade(drill, "pass", 450.0, 1),
        )
        record = drill_records(study.engine)[DRILL]
        assert (record.attempts, record.best_pass_s, record.last_status, record.hints_used) == (2, 450.0, "pass", 1)
        assert rows(study, "SELECT item_id FROM review WHERE id = :id", id=passed) == [(DRILL,)]
    finally:
        study.close()


@pytest.mark.slow
def test_two_machines_share_progress(pg_url, tmp_path, deck_dir, small_paths, clock) -> None:
    machine_a = Study.open(TestPaths(tmp_path / "home-a", deck_dir), clock)
    machine_b = Study.open(TestPaths(tmp_path / "home-b", deck_dir), clock)
    try:
        assert machine_b.last_sync.added == 0  # the items machine A synced are the same items
        graded = machine_a.reviews.cards(machine_a.reviews.queue()[:2])
        for card in graded:
            write_grade(machine_a, machine_a.reviews.grade(card, 4, 1_000))

        home = machine_b.browsing.home()
        assert home.reviews_total == 2 and home.new_available == 4
        assert not {card.item_id for card in graded} & set(machine_b.reviews.queue())
        assert load_report(machine_b, None).activity.reviews.total == 2

        write_grade(machine_b, machine_b.reviews.grade(machine_b.reviews.cards(machine_b.reviews.queue())[0], 3, 1_000))
        assert machine_a.browsing.home().reviews_total == 3 and len(machine_a.reviews.queue()) == 3
        clock.now += timedelta(days=1)  # tomorrow both see the first two due again, from either machine
        assert machine_a.reviews.queue()[:2] == machine_b.reviews.queue()[:2] == [card.item_id for card in graded]
    finally:
        machine_a.close()
        machine_b.close()
    assert not (tmp_path / "home-a" / "drill.db").exists() and not (tmp_path / "home-b" / "drill.db").exists()


def test_machines_syncing_new_content_at_once_add_each_item_once(pg_url, tmp_path, deck_dir, clock) -> None:
    write_deck(deck_dir, "many.toml", [(f"x-{i}", "memory") for i in range(300)])
    load = load_decks([deck_dir])
    machines = 4
    engines = [open_store(Paths(tmp_path / f"home-{n}")) for n in range(machines)]
    reports, errors = at_once(
        [lambda engine=engine: sync_content(engine, load.items, load.broken_decks, clock()) for engine in engines]
    )
    try:
        assert errors == []
        assert sorted(report.added for report in reports) == [0] * (machines - 1) + [300]
        with engines[0].connect() as connection:
            assert connection.execute(text("SELECT COUNT(*) FROM item")).scalar_one() == 300
    finally:
        for engine in engines:
            engine.dispose()


def test_items_graded_without_fsrs_memory_are_rebuilt_from_their_reviews(pg_url, small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    try:
        for card in study.reviews.cards(study.reviews.queue()[:3]):
            write_grade(study, study.reviews.grade(card, 3, 1_000))
        remembered = rows(study, "SELECT id, fsrs_stability, fsrs_difficulty, fsrs_due_day FROM item ORDER BY id")
        with writing(study.engine) as connection:  # as a store written before FSRS memory was kept
            connection.execute(
                text("UPDATE item SET fsrs_stability = NULL, fsrs_difficulty = NULL, fsrs_due_day = NULL")
            )
    finally:
        study.close()
    again = Study.open(small_paths, clock)
    try:
        assert (
            rows(again, "SELECT id, fsrs_stability, fsrs_difficulty, fsrs_due_day FROM item ORDER BY id") == remembered
        )
        assert sum(1 for row in remembered if row[1] is not None) == 3
    finally:
        again.close()


def test_reviews_stored_without_the_memory_before_them_get_it_on_open(pg_url, small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    try:
        items = study.reviews.queue()[:2]
        for days in (0, 2, 3):
            clock.now += timedelta(days=days)
            for card in study.reviews.cards(items):
                write_grade(study, study.reviews.grade(card, 3 if days else 4, 1_000))
        memory = "SELECT id, fsrs_stability_before, fsrs_difficulty_before FROM review ORDER BY id"
        written = rows(study, memory)
        assert sum(1 for row in written if row[1] is not None) == 4  # each item's first review has none
        with writing(study.engine) as connection:  # as an older drill left them
            connection.execute(text("UPDATE review SET fsrs_stability_before = NULL, fsrs_difficulty_before = NULL"))
    finally:
        study.close()
    again = Study.open(small_paths, clock)
    try:
        assert rows(again, memory) == written
    finally:
        again.close()
