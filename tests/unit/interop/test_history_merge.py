"""History import merges with the store as it stands: grades given while it runs are kept and
replayed with the imported reviews, and an import cut short leaves every item whole, so running
it again adds exactly the rest."""

from __future__ import annotations

import hashlib
import sqlite3
import tracemalloc
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from helpers.clock import Clock
from helpers.content import TestPaths
from sqlalchemy import text

from drill.config import Config
from drill.interop import history_csv
from drill.interop.history_csv import import_history
from drill.schedule.grading import ItemState
from drill.schedule.rebuild import replay_grades
from drill.store import review_log
from drill.study import Study
from drill.study.writes import write_grade

HEADER = "card_id,review_time,review_rating,review_duration"
ITEMS = ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2")
GRADES = """SELECT id, study_day, quality, counted, reps_after, interval_after, due_after FROM review
    WHERE item_id = :item_id AND (cram = FALSE OR counted = TRUE) ORDER BY reviewed_at, id"""


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def open_study(paths: TestPaths, clock: Clock, scheduler: str) -> Study:
    paths.ensure()
    paths.config.write_text(f'scheduler = "{scheduler}"\nfuzz = false\n')
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def write_history(path: Path, end: datetime, reviews: int = 600) -> None:
    """`reviews` reviews of the six items over the 40 days before `end`, some on one day, two in
    one millisecond (the second is skipped)."""
    start = int((end - timedelta(days=40)).timestamp() * 1000)
    step = 40 * 86_400_000 // reviews
    rows = [f"{card_id(ITEMS[n % 6])},{start + n * step},{1 + n * 7 % 4},{500 + n}" for n in range(reviews)]
    rows.append(rows[-1].rsplit(",", 1)[0] + ",9")
    path.write_text(HEADER + "\n" + "\n".join(rows) + "\n")


def assert_replayed(study: Study) -> None:
    """Every item's review rows and schedule are what replaying its stored grades gives."""
    with study.engine.connect() as connection:
        for item_id in ITEMS:
            rows = connection.execute(text(GRADES), {"item_id": item_id}).all()
            steps = list(
                replay_grades(
                    [(row.id, date.fromisoformat(row.study_day), row.quality) for row in rows], study.config.scheduler
                )
            )
            assert [(row.counted, row.reps_after, row.interval_after, row.due_after) for row in rows] == [
                (
                    step.counted,
                    step.after.repetitions,
                    step.after.interval,
                    step.after.due_day and step.after.due_day.isoformat(),
                )
                for step in steps
            ]
            assert study.reviews.cards([item_id])[0].state == (steps[-1].after if steps else ItemState())


def all_reviews(study: Study) -> list[tuple]:
    with study.engine.connect() as connection:
        return connection.execute(
            text(
                """SELECT item_id, reviewed_at, study_day, button, duration_ms, counted, reps_after, interval_after,
            due_after, fsrs_stability_before FROM review ORDER BY reviewed_at, id"""
            )
        ).all()


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_grades_given_during_the_import_are_merged_not_overwritten(
    monkeypatch, small_paths, clock, tmp_path, scheduler
) -> None:
    source = tmp_path / "history.csv"
    write_history(source, clock.now - timedelta(hours=1))
    study = open_study(small_paths, clock, scheduler)
    app = open_study(small_paths, clock, scheduler)  # the app, on its own connection, grading meanwhile
    graded: list[datetime] = []
    merge = review_log.Staging.merge

    def grading_meanwhile(staging, ids, *args):
        # Before the group is merged: a grade of one of its items, read and written by the app.
        clock.now += timedelta(seconds=5)
        write_grade(app, app.reviews.grade(app.reviews.cards([ids[0]])[0], 3, 1000))
        graded.append(clock.now)
        merged = merge(staging, ids, *args)
        # After: a grade of an item already merged, from the state the merge left.
        clock.now += timedelta(seconds=5)
        write_grade(app, app.reviews.grade(app.reviews.cards([ids[-1]])[0], 1, 1000))
        graded.append(clock.now)
        return merged

    monkeypatch.setattr(history_csv, "GROUP_REVIEWS", 150)  # about one item per transaction
    monkeypatch.setattr(review_log.Staging, "merge", grading_meanwhile)
    try:
        report = import_history(study, source)
        assert (report.rows, report.added, report.items) == (601, 600, 6)
        assert len(graded) == 12  # six groups, two grades each
        stored = {review.reviewed_at for review in review_log.stream_reviews(study.engine)}
        assert set(graded) <= stored and len(stored) == 612  # every grade kept, with every imported review
        assert_replayed(study)
    finally:
        study.close()
        app.close()


def test_an_interrupted_import_leaves_items_whole_and_running_it_again_adds_the_rest(
    monkeypatch, small_paths, clock, tmp_path, deck_dir
) -> None:
    source = tmp_path / "history.csv"
    write_history(source, clock.now - timedelta(hours=1))
    whole = open_study(TestPaths(tmp_path / "home-b", deck_dir), Clock(clock.now), "sm2")
    import_history(whole, source)  # the same file, imported in one go elsewhere

    study = open_study(small_paths, clock, "sm2")
    merge, merges = review_log.Staging.merge, []

    def interrupted(staging, ids, *args):
        if len(merges) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the third group
        merges.append(ids)
        return merge(staging, ids, *args)

    monkeypatch.setattr(history_csv, "GROUP_REVIEWS", 150)
    monkeypatch.setattr(review_log.Staging, "merge", interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            import_history(study, source)
        done = {item_id for ids in merges for item_id in ids}
        assert {review.item_id for review in review_log.stream_reviews(study.engine)} == done and len(done) == 2
        assert_replayed(study)  # the merged items are whole, the others untouched

        monkeypatch.setattr(review_log.Staging, "merge", merge)
        again = import_history(study, source)
        assert (again.added, again.items) == (400, 4)
        assert all_reviews(study) == all_reviews(whole)
        assert [study.reviews.cards([item])[0].state for item in ITEMS] == [
            whole.reviews.cards([item])[0].state for item in ITEMS
        ]
    finally:
        study.close()
        whole.close()


def test_staged_reviews_are_held_in_a_few_bytes_each_and_let_go_once_merged(small_paths, clock) -> None:
    """A million-row file is held while it is checked: its reviews are compact columns per item, never row objects."""
    study = open_study(small_paths, clock, "sm2")
    start = int((clock.now - timedelta(days=300)).timestamp() * 1000)
    reviews = 50_000
    try:
        with review_log.staging(study.engine) as staging:
            tracemalloc.start()
            for n in range(reviews):
                staging.add(review_log.StagedReview(ITEMS[n % 6], start + n * 500_000, 1 + n % 4, 900, False, n + 2))
            held, _ = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert held < 20 * reviews  # a list of the StagedReview tuples alone takes over 100 bytes each
            for ids in staging.groups(history_csv.GROUP_REVIEWS):
                staging.merge(ids, 4, "sm2")
            assert staging.staged == {}
        assert len(list(review_log.stream_reviews(study.engine))) == reviews
    finally:
        study.close()


def test_an_import_commits_in_short_transactions(monkeypatch, small_paths, clock, tmp_path) -> None:
    """The store's write lock is taken once per group of items, and free in between."""
    source = tmp_path / "history.csv"
    write_history(source, clock.now - timedelta(hours=1))
    study = open_study(small_paths, clock, "sm2")
    other = sqlite3.connect(small_paths.database, timeout=0.5, isolation_level=None)
    merge, free_between = review_log.Staging.merge, []

    def merge_then_write(staging, ids, *args):
        merged = merge(staging, ids, *args)
        other.execute("BEGIN IMMEDIATE")  # "database is locked" if the import still held the lock
        other.execute("UPDATE item SET suspended = suspended WHERE id = 'm-1'")
        other.execute("COMMIT")
        free_between.append(ids)
        return merged

    monkeypatch.setattr(history_csv, "GROUP_REVIEWS", 150)
    monkeypatch.setattr(review_log.Staging, "merge", merge_then_write)
    try:
        import_history(study, source)
        assert len(free_between) == 6
    finally:
        study.close()
        other.close()


def test_reviews_stored_before_in_the_same_millisecond_are_skipped(small_paths, clock, tmp_path) -> None:
    study = open_study(small_paths, clock, "sm2")
    try:
        clock.now = datetime(2026, 11, 1, 9, 0, 0, 123_456, tzinfo=UTC)
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 3, 1000))
        source = tmp_path / "history.csv"
        source.write_text(
            f"{HEADER}\n{card_id('m-1')},{int(clock.now.timestamp() * 1000)},1,5\n"
            f"{card_id('m-1')},{int(clock.now.timestamp() * 1000) - 86_400_000},1,5\n"
        )
        clock.now += timedelta(days=2)
        report = import_history(study, source)
        assert (report.rows, report.added, report.duplicates) == (2, 1, 1)
        assert [row.button for row in all_reviews(study)] == [1, 3]
        assert_replayed(study)
    finally:
        study.close()
