"""Spreading the load: passed items' due days move to the least loaded day of a small window,
deterministically; `fuzz = false` keeps the memory model's day."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from helpers.content import TestPaths, write_deck
from sqlalchemy import text

from drill.config import Config, ConfigError
from drill.schedule.grading import ItemState, advance
from drill.schedule.load_balance import Balance, balanced_day, window
from drill.study import Study
from drill.study.writes import write_grade

TODAY = date(2026, 11, 22)


@pytest.mark.parametrize(
    "interval, bounds",
    [
        (1, (1, 1)),
        (2, (2, 2)),
        (3, (2, 4)),
        (6, (5, 7)),
        (20, (19, 21)),
        (30, (28, 32)),
        (100, (95, 105)),
        (36_500, (34_675, 36_500)),
    ],
)
def test_the_window_is_five_percent_at_least_a_day_from_three_days_on(interval: int, bounds: tuple[int, int]) -> None:
    assert window(interval) == bounds


def test_an_empty_calendar_keeps_the_computed_day() -> None:
    due = TODAY + timedelta(days=30)
    assert balanced_day(TODAY, due, {}, "m-1|2026-11-22") == due


def spread(interval: int, items: int = 100, load: dict[date, int] | None = None) -> dict[str, date]:
    """Grade `items` items the same day with the same interval, each seeing the load the earlier ones left."""
    due, load, days = TODAY + timedelta(days=interval), Counter(load or {}), {}
    for n in range(items):
        day = balanced_day(TODAY, due, load, f"i-{n}|{TODAY}")
        days[f"i-{n}"] = day
        load[day] += 1
    return days


@pytest.mark.parametrize("interval", [6, 20, 100])
def test_items_graded_alike_land_on_several_days_within_the_window_and_evenly(interval: int) -> None:
    days = spread(interval)
    shortest, longest = window(interval)
    counts = Counter(days.values())
    assert len(counts) == longest - shortest + 1 > 1
    assert all(shortest <= (day - TODAY).days <= longest for day in counts)
    assert max(counts.values()) - min(counts.values()) <= 1
    assert spread(interval) == days  # the same grades against the same load: the same days


def test_the_least_loaded_day_wins_then_the_nearest_then_the_seed() -> None:
    due = TODAY + timedelta(days=20)
    busy = {due: 5, due - timedelta(days=1): 2, due + timedelta(days=1): 3}
    assert balanced_day(TODAY, due, busy, "a") == due - timedelta(days=1)
    # Two days equally loaded and equally near: the seed picks, the same way every time.
    even = {due: 5}
    picks = {balanced_day(TODAY, due, even, f"m-{n}|2026-11-22") for n in range(20)}
    assert picks == {due - timedelta(days=1), due + timedelta(days=1)}
    assert [balanced_day(TODAY, due, even, f"m-{n}|2026-11-22") for n in range(20)] == [
        balanced_day(TODAY, due, even, f"m-{n}|2026-11-22") for n in range(20)
    ]


def test_a_failed_item_stays_due_today_and_short_intervals_never_move() -> None:
    packed = Balance(
        "m-1", lambda first, last: {first + timedelta(days=n): 100 for n in range((last - first).days + 1)}
    )
    learnt = ItemState(
        repetitions=2, interval=6, easiness=2.5, due_day=TODAY, last_review_day=TODAY - timedelta(days=6)
    )
    assert advance(learnt, 2, TODAY, "sm2", packed).due_day == TODAY  # Again: relearning, today
    assert advance(ItemState(), 4, TODAY, "sm2", packed).due_day == TODAY + timedelta(days=1)  # 1 day: kept
    moved = advance(learnt, 4, TODAY, "sm2", Balance("m-1", lambda first, last: {TODAY + timedelta(days=15): 9}))
    assert moved.due_day in (TODAY + timedelta(days=14), TODAY + timedelta(days=16))
    assert moved.interval == 15  # SM-2's own state is untouched: only the due day moves


def hundred_cards(drill_home: Path, deck_dir: Path) -> TestPaths:
    write_deck(deck_dir, "a.toml", [(f"m-{n}", "memory") for n in range(100)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    return paths


def due_days_after_two_passes(paths: TestPaths, clock, config: Config) -> dict[str, date]:
    """Every card passed with Good on two days in a row (intervals 1, then 6), in id order."""
    start = clock.now
    study = Study(paths, config, clock)
    try:
        study.sync()
        ids = sorted(card.item_id for card in study.reviews.cards([f"m-{n}" for n in range(100)]))
        for _ in range(2):
            for card in study.reviews.cards(ids):
                write_grade(study, study.reviews.grade(card, 3, 1000))
            clock.now += timedelta(days=1)
        return {card.item_id: card.state.due_day for card in study.reviews.cards(ids)}
    finally:
        study.close()
        clock.now = start


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_a_hundred_cards_passed_together_are_spread_and_a_replay_gives_the_same_days(
    drill_home: Path, deck_dir: Path, tmp_path: Path, clock, scheduler: str
) -> None:
    paths = hundred_cards(drill_home, deck_dir)
    unspread = due_days_after_two_passes(paths, clock, Config(scheduler=scheduler, fuzz=False))
    assert len(set(unspread.values())) == 1  # fuzz off: every card on the model's own day
    [model_day] = set(unspread.values())

    replay_paths = hundred_cards(tmp_path / "again", tmp_path / "again-decks")
    spread_days = due_days_after_two_passes(replay_paths, clock, Config(scheduler=scheduler))
    counts = Counter(spread_days.values())
    interval = (model_day - (clock.now.date() + timedelta(days=1))).days
    shortest, longest = window(interval)
    assert len(counts) == longest - shortest + 1 > 1
    assert all(abs((day - model_day).days) <= (longest - shortest) // 2 for day in counts)

    other_paths = hundred_cards(tmp_path / "third", tmp_path / "third-decks")
    assert due_days_after_two_passes(other_paths, clock, Config(scheduler=scheduler)) == spread_days


def test_sm2_sequences_with_fuzz_off_are_exactly_as_published(small_paths, clock) -> None:
    start = clock.now.date()
    small_paths.ensure()
    study = Study(small_paths, Config(fuzz=False), clock)
    try:
        study.sync()
        intervals = []
        for _ in range(5):
            cards = study.reviews.cards(["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"])
            for card in cards:
                write_grade(study, study.reviews.grade(card, 4, 1000))  # Easy: quality 5
            [due] = {card.state.due_day for card in study.reviews.cards(["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"])}
            intervals.append((due - clock.now.date()).days)
            clock.now += timedelta(days=(due - clock.now.date()).days)
        assert intervals == [1, 6, 17, 48, 140]
        assert clock.now.date() == start + timedelta(days=1 + 6 + 17 + 48 + 140)
    finally:
        study.close()


def test_fuzz_is_a_boolean_setting(drill_home: Path) -> None:
    drill_home.mkdir(parents=True, exist_ok=True)
    config = drill_home / "config.toml"
    config.write_text("fuzz = false\n")
    assert Config.load(config).fuzz is False
    assert Config().fuzz is True
    config.write_text('fuzz = "no"\n')
    with pytest.raises(ConfigError, match="fuzz must be true or false"):
        Config.load(config)


def test_the_day_a_grade_names_is_the_spread_day(small_paths, clock) -> None:
    small_paths.ensure()
    study = Study(small_paths, Config(), clock)
    try:
        study.sync()
        card = study.reviews.cards(["m-1"])[0]
        learnt = ItemState(
            repetitions=2,
            interval=6,
            easiness=2.5,
            due_day=study.today,
            last_review_day=study.today - timedelta(days=6),
        )
        card = replace(card, state=learnt)
        with study.engine.begin() as connection:  # the other five cards all due on SM-2's day for it
            connection.execute(
                text("UPDATE item SET due_day = :day WHERE id != 'm-1'"), {"day": study.today + timedelta(days=15)}
            )
        good = study.reviews.grade(card, 3, 1000)
        assert good.after.due_day in (study.today + timedelta(days=14), study.today + timedelta(days=16))
        assert study.reviews.scheduled_day(good.after) == good.after.due_day
        again = study.reviews.grade(card, 1, 1000)
        assert again.after.due_day == study.today
        assert study.reviews.scheduled_day(again.after) == study.today + timedelta(days=1)  # once a repeat passes it
    finally:
        study.close()
