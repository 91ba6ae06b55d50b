"""Custom sessions: today's queue narrowed, cram, review ahead and weakest items; early sessions
log their grades as cram and keep schedules unless they reschedule; `c` on home and `drill review`."""

from datetime import date, timedelta

import pytest
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Checkbox, Input

from drill.cli import main
from drill.commands.review import session
from drill.schedule.custom import CustomSession, choose
from drill.schedule.grading import ItemState
from drill.schedule.records import Card
from drill.study import Study
from drill.study.reviews import Outcome
from drill.study.writes import write_grade
from drill.tui.app import DrillApp
from drill.tui.screens.custom_session import CustomSessionScreen
from drill.tui.screens.review import ReviewScreen

TODAY = date(2026, 11, 22)


def card(
    item_id: str, block: str = "memory", kind: str = "card", topic: str = "KV cache", due: int | None = None
) -> Card:
    state = (
        ItemState()
        if due is None
        else ItemState(
            repetitions=2, interval=6, due_day=TODAY + timedelta(days=due), last_review_day=TODAY - timedelta(days=3)
        )
    )
    return Card(item_id, kind, block, topic, "p", "a", "s", [], None, state)


POOL = [
    card("new", due=None),
    card("due", due=0),
    card("soon", due=2),
    card("later", due=9),
    card("pitch", kind="pitch", due=1),
    card("other", block="compute", topic="Roofline", due=1),
]


def ids(cards) -> list[str]:
    return [c.item_id for c in cards]


def test_review_ahead_takes_items_not_yet_due_within_the_window() -> None:
    assert ids(choose(CustomSession(ahead=2), POOL, TODAY, {}, {}, {})) == ["pitch", "other", "soon"]
    assert ids(choose(CustomSession(ahead=2, kinds=("card",), blocks=("memory",)), POOL, TODAY, {}, {}, {})) == ["soon"]


def test_cram_takes_every_matching_item_due_first_new_last() -> None:
    assert ids(choose(CustomSession(cram=True, topics=("kv",)), POOL, TODAY, {}, {}, {})) == [
        "due",
        "pitch",
        "soon",
        "later",
        "new",
    ]


def test_weakest_orders_by_recall_then_lapses_then_estimation_score() -> None:
    recall = {"due": 0.9, "soon": 0.5, "later": 0.5, "pitch": 0.95, "other": 0.9}
    lapses = {"later": 3, "soon": 1, "other": 2}
    chosen = choose(CustomSession(weakest=4), POOL, TODAY, recall, lapses, {})
    assert ids(chosen) == ["later", "soon", "other", "due"]  # "new" has no recall: never among the weakest


def test_early_sessions_log_cram_and_keep_the_schedule_unless_rescheduling(small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    try:
        for _ in range(2):
            write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 3, 1000))
            clock.now += timedelta(days=1)
        # m-1 is due in five days: a review-ahead session over the next week takes it today
        [early] = study.reviews.custom_cards(CustomSession(ahead=7))
        assert early.item_id == "m-1"
        kept = CustomSession(ahead=7).applied_to(study.reviews.grade(early, 1, 500))
        write_grade(study, kept)
        assert study.reviews.cards(["m-1"])[0].state == early.state
        moved = CustomSession(ahead=7, reschedule=True).applied_to(study.reviews.grade(early, 4, 500))
        write_grade(study, moved)
        assert study.reviews.cards(["m-1"])[0].state == moved.after != early.state
        with study.engine.connect() as connection:
            from sqlalchemy import text

            rows = connection.execute(text("SELECT button, cram, counted FROM review ORDER BY id")).all()
        assert rows == [(3, 0, 1), (3, 0, 1), (1, 1, 0), (4, 1, 1)]
    finally:
        study.close()


def test_the_reviews_job_gives_back_each_grade_as_its_session_logs_it(small_paths, clock) -> None:
    """The review screen hands over the answer and its session; the grade comes back as it will be
    logged, with what it does to the card's schedule (cram keeps it: no interval to show)."""
    study = Study.open(small_paths, clock)
    try:
        reviews, card = study.reviews, study.reviews.cards(["m-1"])[0]
        cram, ahead = CustomSession(cram=True), CustomSession(ahead=7, reschedule=True)
        kept = reviews.grade(card, 3, 1000, custom=cram)
        assert kept.cram and kept.after == kept.before
        assert reviews.outcome(kept, cram) == Outcome(kept=True)
        assert set(reviews.previews(card, cram).values()) == {Outcome(kept=True)}
        plain, moved = reviews.grade(card, 3, 1000), reviews.grade(card, 3, 1000, custom=ahead)
        assert moved.cram and not plain.cram and moved.after == plain.after != plain.before
        good = reviews.outcome(plain)
        assert good == reviews.outcome(moved, ahead) == reviews.previews(card, ahead)[3] == reviews.previews(card)[3]
        assert not good.kept and not good.again_today and good.counted
        assert good.days == (reviews.scheduled_day(plain.after) - plain.study_day).days
        assert reviews.outcome(reviews.grade(card, 1, 1000)).again_today
    finally:
        study.close()


def test_a_narrowed_queue_is_todays_queue_and_moves_schedules(small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    try:
        narrowed = study.reviews.custom_cards(CustomSession(blocks=("compute",)))
        assert sorted(ids(narrowed)) == ["c-1", "c-2"]
        assert CustomSession(blocks=("compute",)).applied_to(study.reviews.grade(narrowed[0], 3, 1)).counted
    finally:
        study.close()


async def open_setup(pilot) -> None:
    await wait_ready(pilot)
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CustomSessionScreen))


@pytest.mark.slow
async def test_c_on_home_sets_up_a_cram_session_and_its_grades_are_logged_as_cram(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 36)) as pilot:
        await open_setup(pilot)
        app.screen.query_one("#block-inference", Checkbox).value = True
        app.screen.query_one("#cram", Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert sorted(screen.session.cards) == ["i-1", "i-2"]
        assert "cram" in screen.sub_title
        await pilot.press("space")
        assert screen.grade_labels["3"] == "Good"  # no interval: this grade moves no schedule
        await pilot.press("3")
        assert db_rows(app, "SELECT cram, counted FROM review") == [(1, 0)]
        assert db_rows(app, "SELECT COUNT(*) FROM item WHERE last_review_day IS NOT NULL") == [(0,)]


@pytest.mark.slow
async def test_a_bad_number_in_the_setup_is_said_and_nothing_starts(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 36)) as pilot:
        await open_setup(pilot)
        app.screen.query_one("#weakest", Input).value = "0"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, CustomSessionScreen)
        assert any("Weakest must be a whole number" in str(n.message) for n in app._notifications)


async def test_drill_review_with_options_opens_that_session(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock, start_review=True, custom=CustomSession(blocks=("memory",)))
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        assert sorted(app.screen.session.cards) == ["m-1", "m-2"]


def test_the_cli_options_make_the_session(capsys) -> None:
    from drill.cli import _parser

    args = _parser().parse_args(["review", "--block", "memory", "--block", "compute", "--weakest", "5", "--cram"])
    assert session(args) == CustomSession(blocks=("memory", "compute"), weakest=5, cram=True)
    assert session(_parser().parse_args(["review"])) is None
    assert main(["review", "--reschedule"]) == 2
    assert "--reschedule only applies" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _parser().parse_args(["review", "--weakest", "0"])
