"""scheduler = "fsrs": due days come from FSRS replayed over the stored reviews; SM-2 keeps moving."""

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest
from sqlalchemy import text

from drill.config import Config, ConfigError
from drill.study import Study
from drill.study.writes import write_grade


def open_study(paths, clock, scheduler: str | None = None) -> Study:
    paths.ensure()
    paths.config.write_text("" if scheduler is None else f'scheduler = "{scheduler}"\n')
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def package_due(reviews: list[tuple[date, int]]) -> date:
    scheduler = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    card = fsrs.Card(card_id=1)
    for day, button in reviews:
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        card, _ = scheduler.review_card(card, fsrs.Rating(button), noon)
    return card.due.date()


def grade_and_record(study: Study, item_id: str, button: int):
    card = study.reviews.cards([item_id])[0]
    grade = study.reviews.grade(card, button, 1000)
    write_grade(study, grade)
    return grade


def stored(study: Study, item_id: str):
    with study.engine.connect() as connection:
        return connection.execute(
            text("SELECT repetitions, interval, easiness, due_day, last_review_day FROM item WHERE id = :id"),
            {"id": item_id},
        ).one()


def test_fsrs_sets_the_due_day_and_sm2_fields_keep_moving(small_paths, clock) -> None:
    study = open_study(small_paths, clock, "fsrs")
    item = study.reviews.queue()[0]
    day1 = study.today
    first = grade_and_record(study, item, 3)
    assert first.after.due_day == day1 + timedelta(days=2) == package_due([(day1, 3)])  # S0(Good) = 2.31 days
    assert (first.after.repetitions, first.after.interval, first.after.easiness) == (1, 1, 2.5)  # SM-2, as always
    # A failed repeat on the same day is logged; the memory does not move, and the item stays due today.
    repeat = grade_and_record(study, item, 1)
    assert not repeat.counted and repeat.after == replace(repeat.before, due_day=day1)
    clock.now += timedelta(days=2)
    day3 = study.today
    second = grade_and_record(study, item, 3)
    assert second.after.due_day == package_due([(day1, 3), (day3, 3)])
    assert second.after.due_day != day3 + timedelta(days=6)  # not SM-2's
    assert (second.after.repetitions, second.after.interval, second.after.last_review_day) == (2, 6, day3)
    assert stored(study, item) == (2, 6, 2.5, second.after.due_day.isoformat(), day3.isoformat())
    study.close()


def test_switching_schedulers_keeps_and_uses_all_history(small_paths, clock) -> None:
    study = open_study(small_paths, clock)  # SM-2, the default
    assert study.config.scheduler == "sm2"
    item = study.reviews.queue()[0]
    day1 = study.today
    assert grade_and_record(study, item, 3).after.due_day == day1 + timedelta(days=1)
    clock.now += timedelta(days=1)
    day2 = study.today
    assert grade_and_record(study, item, 4).after.due_day == day2 + timedelta(days=6)
    study.close()

    clock.now += timedelta(days=6)
    day8 = study.today
    study = open_study(small_paths, clock, "fsrs")  # the reviews given under SM-2 are replayed
    grade = grade_and_record(study, item, 2)
    assert grade.after.due_day == day8  # Hard: back later today, relearning
    assert (grade.after.repetitions, grade.after.interval) == (3, 16)  # ceil(6 × 2.6), SM-2 kept up to date
    passed = grade_and_record(study, item, 3)  # passed today: FSRS's day for the day's counted grade
    assert not passed.counted and passed.after.due_day == package_due([(day1, 3), (day2, 4), (day8, 2)])
    study.close()

    clock.now += timedelta(days=20)
    study = open_study(small_paths, clock, "sm2")  # and back: SM-2 picks up where its fields are
    grade = grade_and_record(study, item, 3)
    assert grade.after.due_day == study.today + timedelta(days=grade.after.interval)
    assert (grade.after.interval, grade.after.easiness) == (40, 2.46)  # ceil(16 × 2.46); 2.6 − 0.14 after Hard
    study.close()


def test_config_validates_the_scheduler(small_paths) -> None:
    small_paths.ensure()
    assert Config.load(small_paths.config).scheduler == "sm2"
    small_paths.config.write_text('scheduler = "fsrs"\n')
    assert Config.load(small_paths.config).scheduler == "fsrs"
    small_paths.config.write_text('scheduler = "anki"\n')
    with pytest.raises(ConfigError, match="scheduler"):
        Config.load(small_paths.config)


def test_an_item_failed_today_stays_due_across_a_scheduler_switch(small_paths, clock) -> None:
    study = open_study(small_paths, clock, "fsrs")
    item = study.reviews.queue()[0]
    grade_and_record(study, item, 1)  # Again: due again today
    study.close()
    study = open_study(small_paths, clock, "sm2")  # SM-2 alone would give it tomorrow (interval 1)
    study.reconcile_schedule()  # what opening does after a change of scheduler in config.toml
    assert study.reviews.cards([item])[0].state.due_day == study.today and item in study.reviews.queue()
    study.close()
