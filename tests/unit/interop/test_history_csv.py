"""drill export --history and history import: the open review-log CSV, out and back in."""

from __future__ import annotations

import csv
import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.clock import Clock
from helpers.content import TestPaths
from helpers.reviews import grade_first_in_queue
from sqlalchemy import text

from drill.cli import main
from drill.config import Config
from drill.interop.errors import InteropError
from drill.interop.history_csv import export_history, import_history
from drill.study import Study
from drill.study.writes import write_grade

HEADER = "card_id,review_time,review_rating,review_duration"
REVIEW_COLUMNS = """item_id, reviewed_at, study_day, button, quality, duration_ms, counted, reps_before,
    interval_before, ease_before, due_before, last_day_before, reps_after, interval_after, ease_after, due_after"""
ITEM_COLUMNS = """id, repetitions, interval, easiness, due_day, last_review_day, fsrs_stability, fsrs_difficulty,
    fsrs_due_day"""
# (days after the start, item, button, duration ms): repeats on one day, a lapse, three weeks of history.
SESSION = [
    (0, "m-1", 3, 4000),
    (0, "c-1", 1, 9000),
    (0, "c-1", 2, 6000),
    (0, "c-1", 3, 3000),
    (1, "m-1", 4, 2000),
    (1, "c-1", 3, 5000),
    (2, "i-1", 2, 7000),
    (2, "i-1", 3, 1500),
    (7, "m-1", 3, 2500),
    (7, "c-1", 1, 8000),
    (7, "c-1", 3, 4500),
    (21, "m-1", 3, 2200),
]


def card_id(item_id: str) -> int:
    """The documented mapping: the top 53 bits of SHA-256(item id)."""
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def open_study(paths: TestPaths, clock: Clock, scheduler: str = "sm2") -> Study:
    paths.ensure()
    paths.config.write_text(f'scheduler = "{scheduler}"\n')
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def graded_study(paths: TestPaths, clock: Clock, scheduler: str = "sm2") -> tuple[Study, list[tuple]]:
    """A study graded through SESSION (two minutes apart within a day, odd microseconds); returns
    it and the expected CSV rows."""
    study = open_study(paths, clock, scheduler)
    start, expected = clock.now, []
    for index, (day, item_id, button, duration) in enumerate(SESSION):
        clock.now = start + timedelta(days=day, minutes=2 * index, microseconds=1000 * index + 789)
        write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, duration))
        milliseconds = round((start - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds()) * 1000
        milliseconds += (day * 86_400 + 120 * index) * 1000 + index  # microseconds 789 are dropped
        expected.append((card_id(item_id), milliseconds, button, duration, 0))
    return study, expected


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="") as handle:
        return list(csv.reader(handle))


def reviews(study: Study) -> list[tuple]:
    """Every review, with its time to the millisecond (what the format carries)."""
    with study.engine.connect() as connection:
        rows = connection.execute(text(f"SELECT {REVIEW_COLUMNS} FROM review ORDER BY reviewed_at, id")).all()
    return [(row[0], datetime.fromisoformat(row[1]).isoformat(timespec="milliseconds"), *row[2:]) for row in rows]


def item_states(study: Study) -> list[tuple]:
    with study.engine.connect() as connection:
        return connection.execute(text(f"SELECT {ITEM_COLUMNS} FROM item ORDER BY id")).all()


def other_home(tmp_path: Path, deck_dir: Path, name: str = "home-b") -> TestPaths:
    """A second DRILL_HOME with the same decks."""
    return TestPaths(tmp_path / name, deck_dir)


def test_export_writes_one_row_per_stored_review_oldest_first(small_paths, clock, tmp_path: Path) -> None:
    study, expected = graded_study(small_paths, clock)
    target = tmp_path / "history.csv"
    try:
        assert export_history(study.engine, target) == len(SESSION)
    finally:
        study.close()
    lines = target.read_text().splitlines()
    assert lines[0] == HEADER + ",cram"
    assert [tuple(int(value) for value in row) for row in read_csv(target)[1:]] == expected
    assert all(card < 2**53 for card, *_ in expected)
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".history")] == []


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_round_trip_gives_the_same_reviews_and_schedules(small_paths, clock, tmp_path, deck_dir, scheduler) -> None:
    a, _ = graded_study(small_paths, clock, scheduler)
    b = open_study(other_home(tmp_path, deck_dir), Clock(clock.now), scheduler)
    target = tmp_path / "history.csv"
    try:
        export_history(a.engine, target)
        report = import_history(b, target)
        assert (report.rows, report.added, report.duplicates, report.items) == (len(SESSION), len(SESSION), 0, 3)
        assert reviews(b) == reviews(a)  # times, buttons, durations, study days, counted flags, states before/after
        assert item_states(b) == item_states(a)
        assert [row[6] for row in reviews(b)] == [1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1]

        again = import_history(b, target)
        assert (again.added, again.duplicates) == (0, len(SESSION))
        assert any("adds nothing" in line for line in again.lines())
        assert reviews(b) == reviews(a) and item_states(b) == item_states(a)

        assert import_history(a, target).added == 0  # into the study it came from: same reviews, to the ms
        assert len(reviews(a)) == len(SESSION)
    finally:
        a.close()
        b.close()


def test_imported_reviews_keep_the_fsrs_memory_before_each_as_the_grades_wrote_it(
    small_paths, clock, tmp_path, deck_dir
) -> None:
    a, _ = graded_study(small_paths, clock)
    b = open_study(other_home(tmp_path, deck_dir), Clock(clock.now))
    target = tmp_path / "history.csv"
    memory = "SELECT fsrs_stability_before, fsrs_difficulty_before FROM review ORDER BY reviewed_at, id"
    try:
        export_history(a.engine, target)
        import_history(b, target)
        with a.engine.connect() as graded, b.engine.connect() as imported:
            written = graded.execute(text(memory)).all()
            assert imported.execute(text(memory)).all() == written
        # Each item's first review has none; every later one (same-day repeats too) has one.
        assert [row[0] is None for row in written] == [
            index == min(i for i, s in enumerate(SESSION) if s[1] == item)
            for index, (_, item, _, _) in enumerate(SESSION)
        ]
    finally:
        a.close()
        b.close()


def test_a_hand_made_history_counts_the_first_review_of_each_study_day(small_paths, clock, tmp_path) -> None:
    # Rollover 4 am (TZ=UTC): 02:00 on the 2nd still belongs to study day the 1st.
    times = [
        datetime(2026, 11, 1, 10, tzinfo=UTC),
        datetime(2026, 11, 2, 2, tzinfo=UTC),
        datetime(2026, 11, 2, 10, tzinfo=UTC),
    ]
    source = tmp_path / "hand.csv"
    source.write_text(
        HEADER
        + "\n"
        + "".join(
            f"{card_id('m-2')},{int(moment.timestamp() * 1000)},{button},\n"
            for moment, button in zip(times, (1, 3, 3), strict=True)
        )
    )
    study = open_study(small_paths, clock)
    try:
        assert import_history(study, source).added == 3
        rows = reviews(study)
        assert [(row[2], row[6], row[5]) for row in rows] == [
            ("2026-11-01", 1, 0),
            ("2026-11-01", 0, 0),
            ("2026-11-02", 1, 0),
        ]  # study day, counted, duration
        assert [row[4] for row in rows] == [2, 4, 4]  # SM-2 quality of Again, Good, Good
        (state,) = [row for row in item_states(study) if row.id == "m-2"]
        # Again on the 1st (reps 0, interval 1), then Good on the 2nd: SM-2's first interval again.
        assert (state.repetitions, state.interval, state.last_review_day, state.due_day) == (
            1,
            1,
            "2026-11-02",
            "2026-11-03",
        )
    finally:
        study.close()


def test_columns_in_any_order_and_extra_columns_are_accepted(small_paths, clock, tmp_path) -> None:
    source = tmp_path / "reordered.csv"
    moment = int(datetime(2026, 11, 20, 9, tzinfo=UTC).timestamp() * 1000)
    source.write_text(
        f"review_state,review_rating,review_duration,card_id,review_time\n2,4,1200,{card_id('i-2')},{moment}\n"
    )
    study = open_study(small_paths, clock)
    try:
        assert import_history(study, source).added == 1
        assert [(row[0], row[3], row[5]) for row in reviews(study)] == [("i-2", 4, 1200)]
    finally:
        study.close()


def test_bad_rows_are_all_reported_and_nothing_is_imported(small_paths, clock, tmp_path) -> None:
    moment = int(datetime(2026, 11, 20, 9, tzinfo=UTC).timestamp() * 1000)
    good = [f"{card_id('m-1')},{moment + 1000 * n},3,1000" for n in range(7)]
    rows = [*good[:5], f"{card_id('m-1')},{moment + 9000},5,1000", *good[5:6], f"12345,{moment},3,1000", *good[6:]]
    source = tmp_path / "bad.csv"
    source.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    study = open_study(small_paths, clock)
    try:
        with pytest.raises(InteropError) as raised:
            import_history(study, source)
        assert [problem.split(": ", 1)[0] for problem in raised.value.problems] == [f"{source}:7", f"{source}:9"]
        assert "review_rating" in raised.value.problems[0] and "12345" in raised.value.problems[1]
        assert reviews(study) == []
    finally:
        study.close()


@pytest.mark.parametrize(
    ("row", "complaint"),
    [
        ("{card},1700000000,3,0", "review_time 1700000000 is not between"),  # seconds, not milliseconds
        ("{card},{tomorrow_and_more},3,0", "is not between 2000-01-01 and tomorrow"),
        ("{card},{now},5,0", "review_rating must be 1, 2, 3 or 4, not '5' (or 0: a forget)"),
        ("{card},{now},3,-5", "review_duration must be whole milliseconds"),
        ("{card},{now},3,1.5", "review_duration must be whole milliseconds"),
        ("abc,{now},3,0", "card_id must be an integer"),
        ("{card},{now}", "2 columns"),
    ],
)
def test_each_kind_of_bad_value_is_named_with_its_line(small_paths, clock, tmp_path, row, complaint) -> None:
    now = int(clock.now.timestamp() * 1000)
    source = tmp_path / "bad.csv"
    values = {"card": card_id("m-1"), "now": now, "tomorrow_and_more": now + 86_400_000 + 60_000}
    source.write_text(f"{HEADER}\n{card_id('m-1')},{now - 5000},3,100\n{row.format(**values)}\n")
    study = open_study(small_paths, clock)
    try:
        with pytest.raises(InteropError) as raised:
            import_history(study, source)
        assert len(raised.value.problems) == 1
        assert raised.value.problems[0].startswith(f"{source}:3: ") and complaint in raised.value.problems[0]
        assert reviews(study) == []
    finally:
        study.close()


@pytest.mark.parametrize(
    ("content", "complaint"),
    [("", "empty file"), ("card_id,review_time,review_rating\n1,2,3\n", "lacks review_duration")],
)
def test_a_missing_header_is_reported_on_line_1(small_paths, clock, tmp_path, content, complaint) -> None:
    source = tmp_path / "headless.csv"
    source.write_text(content)
    study = open_study(small_paths, clock)
    try:
        with pytest.raises(InteropError) as raised:
            import_history(study, source)
        assert raised.value.problems[0].startswith(f"{source}:1: ") and complaint in raised.value.problems[0]
    finally:
        study.close()


def test_cli_exports_history_and_anki(capsys, drill_home: Path, tmp_path: Path) -> None:
    item_id = grade_first_in_queue()
    history, package = tmp_path / "h.csv", tmp_path / "d.apkg"
    assert main(["export", "--history", str(history), "--anki", str(package)]) == 0
    out = capsys.readouterr().out
    assert f"{history}: 1 review" in out and f"{package}: " in out and "notes in 5 decks" in out
    rows = read_csv(history)
    assert rows[0] == [*HEADER.split(","), "cram"] and len(rows) == 2
    assert rows[1][0] == str(card_id(item_id)) and rows[1][2:] == ["3", "1234", "0"]
    assert package.stat().st_size > 0


def test_cli_export_needs_a_target_and_a_writable_folder(capsys, tmp_path: Path) -> None:
    assert main(["export"]) == 2
    assert capsys.readouterr().err.startswith("drill: export needs --anki")
    assert main(["export", "--history", str(tmp_path / "missing" / "h.csv")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"drill: cannot write {tmp_path / 'missing' / 'h.csv'}: ") and err.count("\n") == 1


def test_a_cram_grade_that_kept_the_schedule_round_trips_as_cram(small_paths, clock, tmp_path, deck_dir) -> None:
    a = open_study(small_paths, clock)
    card = a.reviews.cards(["m-1"])[0]
    write_grade(a, a.reviews.grade(card, 3, 1000))
    clock.now += timedelta(days=1)
    write_grade(a, a.reviews.grade(a.reviews.cards(["m-1"])[0], 1, 900).kept_schedule())  # Again in a cram session
    target = tmp_path / "history.csv"
    export_history(a.engine, target)
    assert [row[2:] for row in read_csv(target)[1:]] == [["3", "1000", "0"], ["1", "900", "1"]]
    b = open_study(other_home(tmp_path, deck_dir), Clock(clock.now))
    try:
        import_history(b, target)
        assert b.reviews.cards(["m-1"])[0].state == a.reviews.cards(["m-1"])[0].state  # the cram Again moved nothing
        with b.engine.connect() as connection:
            assert connection.execute(text("SELECT button, cram, counted FROM review ORDER BY reviewed_at")).all() == [
                (3, 0, 1),
                (1, 1, 0),
            ]
    finally:
        a.close()
        b.close()
