"""A forget is an event of the item's history (table schedule_event), not a review: it is stored
once, every replay of the history (an undo, a rebuild, a forget made late from the journal) starts
again from new there, and no figure that counts reviews sees it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from helpers.clock import Clock
from helpers.reviews import grade, sm2_study
from helpers.study_history import build_history, content
from helpers.study_history import open_study as open_history
from sqlalchemy import text

from drill.schedule.grading import ItemState
from drill.schedule.rebuild import replay_grades
from drill.stats.report import load_report
from drill.store import reschedule
from drill.store.history import review_history
from drill.store.writes import forget_item
from drill.study import Study
from drill.study.writes import write_grade, write_undo

EVENTS = "SELECT item_id, happened_at, kind FROM schedule_event ORDER BY id"
REVIEW_FIGURES = ("activity", "retention", "steering", "estimation", "coding", "pitch", "mock_rounds")


def state(study: Study, item_id: str) -> ItemState:
    return study.reviews.cards([item_id])[0].state


def rows(study: Study, sql: str) -> list[tuple]:
    with study.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(sql))]


def test_a_forget_is_stored_once_as_an_event_and_no_review(small_paths, clock) -> None:
    study = sm2_study(small_paths, clock)
    try:
        grade(study, "m-1", 3)
        clock.now += timedelta(days=1)
        grade(study, "m-1", 4)
        clock.now += timedelta(hours=1)
        study.reviews.save_forget("m-1")
        study.drain()
        assert rows(study, EVENTS) == [("m-1", clock.now.isoformat(), "forget")]
        assert rows(study, "SELECT COUNT(*) FROM review") == [(2,)]
        assert state(study, "m-1") == ItemState()
        forget_item(study.engine, "m-1", clock.now, "sm2")  # the journalled forget made again
        assert len(rows(study, EVENTS)) == 1
    finally:
        study.close()


def test_a_forget_made_late_takes_its_place_in_the_history(small_paths, clock) -> None:
    """A forget journalled at 9:00 and made after a grade given at 10:00: the grade counts from new."""
    study = sm2_study(small_paths, clock)
    try:
        grade(study, "m-1", 4)
        clock.now += timedelta(days=1)
        forgotten_at = clock.now
        clock.now += timedelta(hours=1)
        later = grade(study, "m-1", 3)
        forget_item(study.engine, "m-1", forgotten_at, "sm2")
        [(review_id, reps_before, counted)] = rows(
            study,
            "SELECT id, reps_before, counted FROM review WHERE reviewed_at > (SELECT MIN(reviewed_at) FROM review)",
        )
        [step] = replay_grades([(review_id, later.study_day, later.quality)], "sm2")
        assert state(study, "m-1") == step.after and (reps_before, counted) == (0, 1)
        assert rows(study, EVENTS) == [("m-1", forgotten_at.isoformat(), "forget")]
    finally:
        study.close()


def test_an_undo_replays_the_forget(small_paths, clock) -> None:
    """Undoing a grade given before a forget replays the rest of the history: the item stays new."""
    study = sm2_study(small_paths, clock)
    try:
        grade(study, "m-1", 3)
        clock.now += timedelta(days=1)
        undone = grade(study, "m-1", 4)
        clock.now += timedelta(minutes=5)
        study.reviews.save_forget("m-1")
        study.drain()
        write_undo(study, undone)
        assert state(study, "m-1") == ItemState()
        assert rows(study, "SELECT button FROM review") == [(3,)]
    finally:
        study.close()


def test_a_grade_shown_before_a_forget_is_given_to_the_forgotten_item(small_paths, clock) -> None:
    """Another session forgets the item while it is shown here: the grade is rebased on new, and the
    schedule stored is what replaying the history gives."""
    study = sm2_study(small_paths, clock)
    try:
        grade(study, "m-1", 4)
        clock.now += timedelta(days=1)
        shown = study.reviews.cards(["m-1"])[0]
        forget_item(study.engine, "m-1", clock.now, "sm2")  # the other session's forget
        clock.now += timedelta(minutes=1)
        given = study.reviews.grade(shown, 4, 1000)
        assert given.before == shown.state != ItemState()
        write_grade(study, given)
        graded = state(study, "m-1")
        assert graded.repetitions == 1 and graded.last_review_day == given.study_day
        reschedule.rebuild(study.engine, ["m-1"], "sm2", rewrite_log=True)
        assert state(study, "m-1") == graded
    finally:
        study.close()


def test_a_rebuild_starts_again_from_new_at_each_forget(small_paths, clock) -> None:
    study = sm2_study(small_paths, clock)
    try:
        grade(study, "m-1", 4)
        clock.now += timedelta(days=1)
        grade(study, "m-1", 4)
        study.reviews.save_forget("m-1")
        study.drain()
        clock.now += timedelta(days=1)
        grade(study, "m-1", 3)
        graded = state(study, "m-1")
        columns = "SELECT counted, reps_before, interval_before, reps_after, interval_after, due_after FROM review"
        logged = rows(study, columns)
        assert graded.repetitions == 1 and logged[-1][:2] == (1, 0)  # the grade after the forget: from new
        with study.engine.begin() as connection:  # what an import leaves: schedules to rebuild
            connection.execute(text("UPDATE item SET repetitions = 9, interval = 99 WHERE id = 'm-1'"))
            connection.execute(text("UPDATE review SET reps_before = 7, counted = FALSE"))
        assert reschedule.rebuild(study.engine, ["m-1"], "sm2", rewrite_log=True) == 1
        assert state(study, "m-1") == graded and rows(study, columns) == logged
    finally:
        study.close()


def test_a_forget_changes_no_figure_that_counts_reviews(tmp_path: Path) -> None:
    """The stats, the home counts and the models' comparison read reviews: a forget is none."""
    paths, clock = content(tmp_path / "home", tmp_path / "content"), Clock()
    build_history(paths, clock)
    study = open_history(paths, clock)
    try:
        forgotten = [row[0] for row in rows(study, "SELECT DISTINCT item_id FROM review ORDER BY item_id LIMIT 4")]

        def figures() -> dict[str, object]:
            reports = [load_report(study, period).model_dump(mode="json") for period in (7, 30, None)]
            home = study.browsing.home()
            return {
                "reports": [{key: report[key] for key in REVIEW_FIGURES} for report in reports],
                "reviews": (home.reviews_total, home.reviews_today),
                "history": list(review_history(study.engine)),
            }

        before = figures()
        assert sum(before["reports"][-1]["activity"]["heatmap"]["reviews"]) > 0
        for item_id in forgotten:
            study.reviews.save_forget(item_id)
        study.drain()
        assert [state(study, item_id) for item_id in forgotten] == [ItemState()] * 4  # the forgets were made
        assert len(rows(study, EVENTS)) == 4
        assert figures() == before
    finally:
        study.close()
