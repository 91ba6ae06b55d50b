"""The study library end to end (no terminal): queue, grading once a day, repeats, limits."""

from dataclasses import replace
from datetime import date, timedelta

from sqlalchemy import text

from drill.config import Config
from drill.schedule.session import ReviewSession
from drill.store.writes import set_suspended
from drill.study import Study
from drill.study.writes import write_grade


def open_study(paths, clock, **settings) -> Study:
    paths.ensure()
    if settings:
        paths.config.write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def rows(study: Study, sql: str):
    with study.engine.connect() as connection:
        return connection.execute(text(sql)).all()


def test_repeats_in_a_session_are_logged_but_change_state_once(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    session = ReviewSession(study.reviews.cards(study.reviews.queue()))
    first = session.current
    grade = study.reviews.grade(first, 1, 900)  # Again
    session.answer(grade)
    write_grade(study, grade)
    assert grade.after.interval == 1 and grade.after.repetitions == 0
    # Failed, it stays due today in the store (relearning), not only in this session's memory.
    assert rows(study, f"SELECT due_day FROM item WHERE id='{first.item_id}'") == [("2026-11-22",)]
    assert first.item_id in study.reviews.queue()
    # Again brings the card back after a few others; the repeat does not touch SM-2 again, and
    # passing it gives the item SM-2's day.
    position = list(session.order).index(first.item_id)
    assert position == 3
    repeat_card = session.cards[first.item_id]
    repeat = study.reviews.grade(repeat_card, 3, 700)
    assert repeat.after == replace(repeat.before, due_day=date(2026, 11, 23)) and not repeat.counted
    write_grade(study, repeat)
    assert first.item_id not in study.reviews.queue()
    assert rows(study, f"SELECT counted, button FROM review WHERE item_id='{first.item_id}' ORDER BY id") == [
        (1, 1),
        (0, 3),
    ]
    assert rows(study, f"SELECT easiness, due_day FROM item WHERE id='{first.item_id}'") == [
        (2.18, "2026-11-23")
    ]  # 2.5 + 0.1 − 3·(0.08 + 3·0.02)


def test_new_limit_and_next_day(small_paths, clock) -> None:
    study = open_study(small_paths, clock, new_per_day=4)
    queue = study.reviews.queue()
    assert len(queue) == 4
    assert [card.block for card in study.reviews.cards(queue)] == ["memory", "compute", "inference", "memory"]
    for card in study.reviews.cards(queue):
        write_grade(study, study.reviews.grade(card, 3, 1000))
    assert study.reviews.queue() == []  # four new seen; the limit is reached for today
    assert study.browsing.home().new_available == 0
    clock.now += timedelta(days=1)
    tomorrow = study.reviews.queue()
    assert tomorrow[:4] == queue and len(tomorrow) == 6  # yesterday's four are due, then two new


def test_rollover_hour_keeps_late_night_on_the_same_day(small_paths, clock) -> None:
    study = open_study(small_paths, clock, rollover_hour=4)
    clock.now = clock.now.replace(hour=23)
    day = study.today
    clock.now += timedelta(hours=4)  # 03:00 next calendar day
    assert study.today == day
    clock.now += timedelta(hours=1)  # 04:00
    assert study.today == day + timedelta(days=1)


def test_suspended_items_leave_the_queue(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    first = study.reviews.queue()[0]
    set_suspended(study.engine, first, True)
    assert first not in study.reviews.queue()
    assert study.browsing.home().items == 5
