"""FSRS memory stored per item: written with every counted grade, undone with it, rebuilt for old
histories, and used when config.toml switches schedulers or stats predict recall."""

from datetime import date, timedelta

import pytest
from sqlalchemy import text

from drill.estimate.attempt import AttemptRow
from drill.schedule import fsrs_model
from drill.schedule.grading import ItemState, apply
from drill.store import reschedule
from drill.study import Study
from drill.study.writes import write_grade, write_undo


def open_with(paths, clock, scheduler: str = "sm2") -> Study:
    paths.ensure()
    paths.config.write_text(f'scheduler = "{scheduler}"\n')
    return Study.open(paths, clock)


def grade(study: Study, item_id: str, button: int):
    card = study.reviews.cards([item_id])[0]
    given = study.reviews.grade(card, button, 1000)
    return given, write_grade(study, given)


def grade_every(study: Study, clock, item_id: str, buttons: list[int], gap_days: int) -> list:
    """Grade `item_id` with each button in turn, `gap_days` apart; return the study days."""
    days = []
    for button in buttons:
        days.append(study.today)
        grade(study, item_id, button)
        clock.now += timedelta(days=gap_days)
    return days


def review_log(study: Study) -> list:
    with study.engine.connect() as connection:
        return connection.execute(text("SELECT * FROM review ORDER BY id")).all()


def memory(study: Study, item_id: str):
    with study.engine.connect() as connection:
        return connection.execute(
            text(
                "SELECT fsrs_stability, fsrs_difficulty, fsrs_due_day, due_day, interval, last_review_day "
                "FROM item WHERE id = :id"
            ),
            {"id": item_id},
        ).one()


def test_every_counted_grade_stores_fsrs_memory_under_sm2_too(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    buttons = [3, 1, 4]
    days = grade_every(study, clock, item, buttons, 3)
    expected = fsrs_model.replay(zip(days, buttons, strict=True))
    stability, difficulty, fsrs_due, due, interval, _ = memory(study, item)
    assert (stability, difficulty) == pytest.approx((expected.stability, expected.difficulty))
    assert fsrs_due == expected.due_day.isoformat()
    assert due == (days[-1] + timedelta(days=interval)).isoformat()  # SM-2 still sets the due day
    study.close()


def test_undo_puts_the_memory_back(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    first, _ = grade(study, item, 3)
    clock.now += timedelta(days=2)
    second, _ = grade(study, item, 1)
    assert second.after.fsrs_stability < first.after.fsrs_stability  # a lapse shrinks stability
    write_undo(study, second)
    assert memory(study, item)[:3] == (
        first.after.fsrs_stability,
        first.after.fsrs_difficulty,
        first.after.fsrs_due_day.isoformat(),
    )
    study.close()


def forget_memory(study: Study) -> None:
    """Make the store look like one written before FSRS memory was kept (migration 5)."""
    with study.engine.begin() as connection:
        connection.execute(text("UPDATE item SET fsrs_stability = NULL, fsrs_difficulty = NULL, fsrs_due_day = NULL"))


def test_items_graded_without_memory_are_rebuilt_from_their_reviews_on_open(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    buttons = [3, 3, 2]
    days = grade_every(study, clock, item, buttons, 4)
    before = memory(study, item)
    forget_memory(study)
    assert reschedule.items_without_memory(study.engine) == [item]
    study.close()

    study = Study.open(small_paths, clock)
    assert reschedule.items_without_memory(study.engine) == []
    rebuilt = memory(study, item)
    assert rebuilt[0] == pytest.approx(before[0]) and rebuilt[1:] == before[1:]
    sm2 = ItemState()
    for day, button in zip(days, buttons, strict=True):
        sm2 = apply(sm2, button, day)
    assert study.reviews.cards([item])[0].state.interval == sm2.interval
    study.close()


def test_a_scheduler_named_in_config_takes_over_the_due_days_and_back(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    for button in (3, 4):
        grade(study, item, button)
        clock.now += timedelta(days=2)
    _, _, fsrs_due, sm2_due, _, _ = memory(study, item)
    assert fsrs_due != sm2_due
    study.close()

    study = open_with(small_paths, clock, "fsrs")
    assert memory(study, item)[3] == fsrs_due and reschedule.stored_scheduler(study.engine) == "fsrs"
    log = review_log(study)
    study.close()
    study = open_with(small_paths, clock, "sm2")
    assert memory(study, item)[3] == sm2_due
    assert review_log(study) == log and len(log) == 2  # the history is untouched
    study.close()


def test_rebuild_rewrites_imported_review_rows(small_paths, clock) -> None:
    """Reviews inserted without states (an import) get counted flags and states by replay."""
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    with study.engine.begin() as connection:
        for at, day, button in (
            ("2026-11-01T10:00", "2026-11-01", 3),
            ("2026-11-01T11:00", "2026-11-01", 1),
            ("2026-11-05T10:00", "2026-11-05", 3),
        ):
            connection.execute(
                text(
                    """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
                reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
                VALUES (:item, :at, :day, :button, :button + 1, 0, 1, 0, 0, 2.5, 0, 0, 2.5)"""
                ),
                {"item": item, "at": at, "day": day, "button": button},
            )
    reschedule.rebuild(study.engine, [item], "sm2", rewrite_log=True)
    with study.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT counted, reps_before, interval_before, reps_after, interval_after, due_after "
                "FROM review WHERE item_id = :item ORDER BY id"
            ),
            {"item": item},
        ).all()
    assert [tuple(row) for row in rows] == [
        # The Again repeat on 11-01 leaves the item due that day (relearning) until the next pass.
        (1, 0, 0, 1, 1, "2026-11-02"),
        (0, 1, 1, 1, 1, "2026-11-01"),
        (1, 1, 1, 2, 6, "2026-11-11"),
    ]
    state = study.reviews.cards([item])[0].state
    assert (state.repetitions, state.interval, state.due_day.isoformat()) == (2, 6, "2026-11-11")
    study.close()


# -- the FSRS memory before each review, on its row (schema 7) -------------------------------------

MEMORY_BEFORE = "SELECT id, fsrs_stability_before, fsrs_difficulty_before FROM review ORDER BY id"


def memory_before(study: Study) -> list[tuple]:
    with study.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(MEMORY_BEFORE))]


def test_each_review_row_keeps_the_fsrs_memory_the_item_had_before_it(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    stored = []
    for button, gap in ((3, 0), (1, 2), (3, 0), (4, 5)):  # the third is a same-day repeat, not counted
        clock.now += timedelta(days=gap)
        stored.append(memory(study, item)[:2])  # the item's FSRS memory, read back just before the grade
        given, _ = grade(study, item, button)
        assert (given.before.fsrs_stability, given.before.fsrs_difficulty) == stored[-1]
    rows = memory_before(study)
    assert [row[1:] for row in rows] == stored
    assert rows[0][1:] == (None, None)  # a new item has no memory before its first review
    assert all(stability is not None for _, stability, _ in rows[1:])
    assert stored[2] != stored[1]  # the repeat comes after the day's counted grade moved the memory
    study.close()


def test_undo_takes_the_row_and_its_memory_away(small_paths, clock) -> None:
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    grade(study, item, 3)
    clock.now += timedelta(days=3)
    kept = memory_before(study)
    given, review_id = grade(study, item, 2)
    assert memory_before(study)[-1] == (review_id, given.before.fsrs_stability, given.before.fsrs_difficulty)
    write_undo(study, given)
    assert memory_before(study) == kept
    assert reschedule.reviews_without_memory(study.engine) == []
    study.close()


def test_estimate_and_coding_reviews_keep_the_memory_before_them_too(small_paths, clock) -> None:
    from drill.coding.attempt import CodingAttempt
    from drill.store.coding import record_attempt
    from drill.store.estimates import record_review_attempt

    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    grade(study, item, 3)
    clock.now += timedelta(days=2)
    card = study.reviews.cards([item])[0]
    estimate = study.reviews.grade(card, 3, 1000)
    review_id = record_review_attempt(
        study.engine,
        estimate,
        AttemptRow(
            item_id=item,
            attempted_at=clock.now,
            params="{}",
            answer="1 GB",
            parsed=1e9,
            truth=1e9,
            unit="B",
            score=1.0,
            log_error=0.0,
            slip=None,
            error=None,
            seconds=9.0,
        ),
        study.regrade,
    )
    assert memory_before(study)[-1] == (review_id, card.state.fsrs_stability, card.state.fsrs_difficulty)
    clock.now += timedelta(days=4)
    card = study.reviews.cards([item])[0]
    drill = study.reviews.grade(card, 4, 1000)
    review_id = record_attempt(
        study.engine,
        CodingAttempt(item, clock.now, clock.now, "pass", 3, 0, "cpu", 0, 60.0, None, "w"),
        drill,
        study.regrade,
    )
    assert memory_before(study)[-1] == (review_id, card.state.fsrs_stability, card.state.fsrs_difficulty)
    assert card.state.fsrs_stability != memory_before(study)[-2][1]  # the estimate moved the memory
    study.close()


def test_a_rewritten_log_gets_the_memory_before_each_review(small_paths, clock) -> None:
    """The replay that rewrites imported rows fills the FSRS memory before each of them as well."""
    study = open_with(small_paths, clock)
    item = study.reviews.queue()[0]
    days_buttons = [
        ("2026-11-01T10:00", "2026-11-01", 3),
        ("2026-11-01T11:00", "2026-11-01", 1),
        ("2026-11-05T10:00", "2026-11-05", 3),
        ("2026-11-09T10:00", "2026-11-09", 1),
    ]
    with study.engine.begin() as connection:
        for at, day, button in days_buttons:
            connection.execute(
                text(
                    """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
                reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
                VALUES (:item, :at, :day, :button, :button + 1, 0, 1, 0, 0, 2.5, 0, 0, 2.5)"""
                ),
                {"item": item, "at": at, "day": day, "button": button},
            )
    reschedule.rebuild(study.engine, [item], "sm2", rewrite_log=True)
    first = fsrs_model.replay([(date(2026, 11, 1), 3)])
    second = fsrs_model.replay([(date(2026, 11, 1), 3), (date(2026, 11, 5), 3)])
    assert [row[1:] for row in memory_before(study)] == [
        (None, None),
        (first.stability, first.difficulty),
        (first.stability, first.difficulty),
        (second.stability, second.difficulty),
    ]
    study.close()


def test_reviews_stored_before_the_memory_was_kept_get_it_once_on_open(small_paths, clock, monkeypatch) -> None:
    study = open_with(small_paths, clock)
    items = study.reviews.queue()[:2]
    for item in items:
        for button in (3, 1, 3, 4):
            grade(study, item, button)
            clock.now += timedelta(days=3)
    written = memory_before(study)
    assert reschedule.reviews_without_memory(study.engine) == []
    with study.engine.begin() as connection:  # as an older drill left them
        connection.execute(text("UPDATE review SET fsrs_stability_before = NULL, fsrs_difficulty_before = NULL"))
        states = connection.execute(text("SELECT * FROM item ORDER BY id")).all()
    assert sorted(reschedule.reviews_without_memory(study.engine)) == sorted(items)
    study.close()

    study = open_with(small_paths, clock)
    assert study.backfill is not None
    study.backfill.finished.result(timeout=30)  # filled in by the writer after the open
    assert memory_before(study) == written  # the replay steps the memory as the grades did
    with study.engine.connect() as connection:
        assert connection.execute(text("SELECT * FROM item ORDER BY id")).all() == states  # nothing else moved
    study.close()

    # Up to date, opening replays nothing.
    monkeypatch.setattr(reschedule, "fill_memory_before", lambda *args: pytest.fail("replayed again"))
    study = Study.open(small_paths, clock)
    assert study.backfill is None
    study.close()


def test_finding_reviews_without_memory_reads_only_the_partial_index(small_paths, clock) -> None:
    """Every open asks; the partial index holds only the rows to fill, so up to date it reads nothing."""
    study = open_with(small_paths, clock)
    with study.engine.connect() as connection:
        plan = [
            str(row[-1])
            for row in connection.execute(text("EXPLAIN QUERY PLAN " + str(reschedule.WITHOUT_MEMORY_BEFORE)))
        ]
    assert plan == ["SCAN review USING INDEX ix_review_without_memory"], plan
    study.close()
