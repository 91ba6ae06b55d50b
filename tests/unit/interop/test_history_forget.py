"""A forget is an event in the history: a history import replays it, so reviews imported from before
it never undo it, and reviews after it are replayed from a new item's state."""

from __future__ import annotations

import csv
import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.content import TestPaths
from helpers.reviews import grade, sm2_study
from sqlalchemy import text

from drill.interop.errors import InteropError
from drill.interop.history_csv import export_history, import_history
from drill.schedule.grading import ItemState
from drill.study import Study

HEADER = "card_id,review_time,review_rating,review_duration"


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def ms(moment: datetime) -> int:
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def forget(study: Study, item_id: str) -> None:
    study.reviews.save_forget(item_id)
    study.drain()


def write_log(path: Path, rows: list[tuple[str, datetime, int]]) -> None:
    path.write_text(HEADER + "\n" + "".join(f"{card_id(item)},{ms(at)},{button},800\n" for item, at, button in rows))


def test_reviews_imported_from_before_a_forget_leave_the_item_forgotten(small_paths, clock, tmp_path) -> None:
    study = sm2_study(small_paths, clock)
    start = clock.now
    try:
        grade(study, "m-1", 3)
        clock.now = start + timedelta(days=1)
        grade(study, "m-1", 4)
        clock.now = start + timedelta(days=2)
        forget(study, "m-1")
        assert study.reviews.cards(["m-1"])[0].state == ItemState()
        # The phone's log: the two reviews the store has, and one given there before the forget.
        source = tmp_path / "phone.csv"
        write_log(
            source,
            [
                ("m-1", start, 3),
                ("m-1", start + timedelta(days=1), 4),
                ("m-1", start + timedelta(days=1, hours=3), 3),
            ],
        )
        clock.now = start + timedelta(days=3)
        report = import_history(study, source)
        assert (report.rows, report.added, report.items) == (3, 1, 1)
        assert study.reviews.cards(["m-1"])[0].state == ItemState()  # still new: the forget is replayed
        assert "m-1" in study.reviews.queue()
    finally:
        study.close()


def test_reviews_imported_from_after_a_forget_count_from_new(small_paths, clock, tmp_path) -> None:
    study = sm2_study(small_paths, clock)
    start = clock.now
    try:
        grade(study, "m-1", 4)
        clock.now = start + timedelta(days=1)
        grade(study, "m-1", 4)
        clock.now = start + timedelta(days=1, hours=1)
        forget(study, "m-1")
        source = tmp_path / "phone.csv"
        write_log(source, [("m-1", start + timedelta(days=1, hours=2), 3)])  # the forget's study day
        report = import_history(study, source)
        assert (report.added, report.forgets, report.items) == (1, 0, 1)
        with study.engine.connect() as connection:
            last = connection.execute(
                text("SELECT counted, reps_before, reps_after FROM review ORDER BY reviewed_at DESC LIMIT 1")
            ).one()
        assert tuple(last) == (1, 0, 1)  # counted again on its day, from new
        assert study.reviews.cards(["m-1"])[0].state.repetitions == 1
    finally:
        study.close()


def test_a_forget_round_trips_through_the_review_log(small_paths, clock, tmp_path, deck_dir) -> None:
    a = sm2_study(small_paths, clock)
    start = clock.now
    b = sm2_study(TestPaths(tmp_path / "home-b", deck_dir), clock)  # its clock moves with a's
    target = tmp_path / "history.csv"
    try:
        grade(a, "m-1", 4)
        clock.now = start + timedelta(minutes=1)
        grade(a, "c-1", 3)
        clock.now = start + timedelta(days=1)
        grade(a, "m-1", 4)
        clock.now = start + timedelta(days=1, minutes=1)
        forget(a, "m-1")
        forgotten_at = clock.now
        clock.now = start + timedelta(days=2)
        grade(a, "m-1", 2)
        assert export_history(a.engine, target) == 5
        with target.open(newline="") as handle:
            rows = list(csv.reader(handle))[1:]
        assert rows[3] == [str(card_id("m-1")), str(ms(forgotten_at)), "0", "0", "0"]  # rating 0: a forget
        assert [row[2] for row in rows] == ["4", "3", "4", "0", "2"]

        report = import_history(b, target)
        assert (report.rows, report.added, report.forgets, report.items, report.duplicates) == (5, 4, 1, 2, 0)
        assert "added 4 reviews and 1 forget to 2 items" in report.lines()[1]
        assert logged(b) == logged(a) and events(b) == events(a) == [("m-1", forgotten_at)]
        assert [b.reviews.cards([item])[0].state for item in ("m-1", "c-1")] == [
            a.reviews.cards([item])[0].state for item in ("m-1", "c-1")
        ]

        again = import_history(b, target)
        assert (again.added, again.forgets, again.items, again.duplicates) == (0, 0, 0, 5)
        assert events(b) == events(a)
    finally:
        a.close()
        b.close()


def test_a_forget_imported_into_a_store_with_the_reviews_puts_the_item_back_to_new(
    small_paths, clock, tmp_path
) -> None:
    study = sm2_study(small_paths, clock)
    start = clock.now
    try:
        grade(study, "i-1", 4)
        clock.now = start + timedelta(days=1)
        grade(study, "i-1", 4)
        source = tmp_path / "forget.csv"
        write_log(source, [("i-1", start + timedelta(days=1, hours=1), 0)])
        clock.now = start + timedelta(days=2)
        report = import_history(study, source)
        assert (report.rows, report.added, report.forgets, report.items) == (1, 0, 1, 1)
        assert study.reviews.cards(["i-1"])[0].state == ItemState()
        assert events(study) == [("i-1", start + timedelta(days=1, hours=1))]
    finally:
        study.close()


def test_a_forget_is_no_cram_grade(small_paths, clock, tmp_path) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(f"{HEADER},cram\n{card_id('m-1')},{ms(clock.now)},0,0,1\n")
    study = sm2_study(small_paths, clock)
    try:
        with pytest.raises(InteropError) as raised:
            import_history(study, source)
        assert raised.value.problems == [f"{source}:2: a forget (review_rating 0) is no cram grade: its cram must be 0"]
        assert events(study) == []
    finally:
        study.close()


def logged(study: Study) -> list[tuple]:
    """Every review with its time to the millisecond and the states before and after it."""
    with study.engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT item_id, reviewed_at, study_day, button, counted, reps_before, interval_before,
                ease_before, reps_after, interval_after, due_after, fsrs_stability_before FROM review
                ORDER BY reviewed_at, id"""
            )
        ).all()
    return [(row[0], datetime.fromisoformat(row[1]).isoformat(timespec="milliseconds"), *row[2:]) for row in rows]


def events(study: Study) -> list[tuple[str, datetime]]:
    with study.engine.connect() as connection:
        rows = connection.execute(text("SELECT item_id, happened_at FROM schedule_event ORDER BY id")).all()
    return [(item_id, datetime.fromisoformat(at)) for item_id, at in rows]
