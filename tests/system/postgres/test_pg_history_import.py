"""`drill import --history` on PostgreSQL: staged in a temporary table of its own connection,
merged a group of items per transaction, skipped when imported again; schedules replayed."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from sqlalchemy import text

from drill.interop import history_csv
from drill.interop.history_csv import import_history
from drill.schedule.grading import ItemState
from drill.schedule.rebuild import replay_grades
from drill.store.dialect import as_date
from drill.study import Study
from drill.study.writes import write_grade

ITEMS = ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2")


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def test_history_import_on_postgresql(pg_url, small_paths, clock, tmp_path, monkeypatch) -> None:
    start = int((clock.now - timedelta(days=40)).timestamp() * 1000)
    source = tmp_path / "history.csv"
    source.write_text(
        "card_id,review_time,review_rating,review_duration,cram\n"
        + "".join(
            f"{card_id(ITEMS[n % 6])},{start + n * 5_000_000},{1 + n * 7 % 4},{500 + n},{int(n % 50 == 7)}\n"
            for n in range(600)
        )
    )
    monkeypatch.setattr(history_csv, "GROUP_REVIEWS", 150)
    study = Study.open(small_paths, clock)
    try:
        assert study.engine.dialect.name == "postgresql"
        # a grade after the imported ones
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 3, 1000))
        report = import_history(study, source)
        assert (report.rows, report.added, report.items) == (600, 600, 6)
        assert import_history(study, source).added == 0
        with study.engine.connect() as connection:
            for item_id in ITEMS:
                rows = connection.execute(
                    text(
                        """SELECT id, study_day, quality, counted, reps_after FROM review WHERE item_id = :item_id
                    AND (cram = FALSE OR counted = TRUE) ORDER BY reviewed_at, id"""
                    ),
                    {"item_id": item_id},
                ).all()
                steps = list(replay_grades([(row.id, as_date(row.study_day), row.quality) for row in rows], "sm2"))
                assert [(row.counted, row.reps_after) for row in rows] == [
                    (step.counted, step.after.repetitions) for step in steps
                ]
                assert study.reviews.cards([item_id])[0].state == (steps[-1].after if steps else ItemState())
            assert connection.execute(text("SELECT COUNT(*) FROM review WHERE cram")).scalar_one() == 12
    finally:
        study.close()


def test_a_forget_is_exported_imported_and_replayed_on_postgresql(pg_url, small_paths, clock, tmp_path) -> None:
    """The forget's event in the union of the history (PostgreSQL types its NULLs and booleans)."""
    study = Study.open(small_paths, clock)
    start = clock.now
    try:
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 4, 1000))
        clock.now = start + timedelta(days=1)
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 4, 1000))
        clock.now = start + timedelta(days=1, minutes=1)
        study.reviews.save_forget("m-1")
        study.drain()
        target = tmp_path / "history.csv"
        assert history_csv.export_history(study.engine, target) == 3
        assert [line.split(",")[2] for line in target.read_text().splitlines()[1:]] == ["4", "4", "0"]
        earlier = int((start + timedelta(hours=20)).timestamp() * 1000)
        with target.open("a") as log:  # a review given elsewhere before the forget
            log.write(f"{card_id('m-1')},{earlier},3,900,0\n")
        clock.now = start + timedelta(days=2)
        report = import_history(study, target)
        assert (report.added, report.forgets, report.duplicates) == (1, 0, 3)
        assert study.reviews.cards(["m-1"])[0].state == ItemState()  # still forgotten
    finally:
        study.close()
