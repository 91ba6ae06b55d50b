"""Keys never act by accident in the review: text typed on past an estimate's answer does nothing on
its result (so it never reaches the next card's single-key commands), a suspension is taken back
with u, keys typed while the review loads land on its first card, and typed text is never lost to
Escape without a question."""

from __future__ import annotations

import threading

import pytest
from helpers.content import add_problems, pitch_only
from helpers.pilot import db_rows, wait_ready, wait_until
from helpers.screens import open_review, start_review
from textual.widgets import TextArea

from drill.tui.app import DrillApp
from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.review import ReviewScreen


def suspended_ids(app) -> list[str]:
    return [row[0] for row in db_rows(app, "SELECT id FROM item WHERE suspended = TRUE")]


def estimate_first(screen: ReviewScreen) -> None:
    """Put today's estimation problem first, a flash card right after it."""
    order = screen.session.order
    estimate = next(item_id for item_id in order if screen.session.cards[item_id].kind == "estimate")
    order.remove(estimate)
    order.appendleft(estimate)
    screen.show_current()


@pytest.mark.slow
async def test_text_typed_on_past_a_graded_estimate_does_nothing(small_paths, clock) -> None:
    add_problems(small_paths, "kv-cache.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        estimate_first(screen)
        estimate = screen.session.current.item_id
        await pilot.press(*screen.view.problem.pretty, "enter")
        after = screen.session.current.item_id  # the next card, behind the result
        assert screen.view.allows("next") and len(screen.session.given) == 1
        await pilot.press(*"use 2 e s")  # u, e, s and digits are commands on a card; here they are text
        assert screen.view.card.item_id == estimate and screen.view.allows("next")
        assert len(screen.session.given) == 1 and screen.session.current.item_id == after
        assert suspended_ids(app) == []
        await pilot.press("enter")
        assert screen.view.card.item_id == after and screen.session.current.kind == "card"
    assert db_rows(app, "SELECT item_id FROM review") == [(estimate,)]


@pytest.mark.slow
async def test_a_suspension_from_the_review_is_undone_with_u(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_review(pilot)
        first = screen.session.current.item_id
        await pilot.press("s")
        await wait_until(pilot, lambda: suspended_ids(app) == [first])
        assert screen.session.current.item_id != first
        await pilot.press("u")
        assert screen.session.current.item_id == first
        await wait_until(pilot, lambda: suspended_ids(app) == [])
        await pilot.press("space", "3", "s", "u", "u")  # grade, suspend the next; undo both, latest first
        assert screen.session.current.item_id == first and screen.session.given == []
    assert suspended_ids(app) == [] and db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]


@pytest.mark.slow
async def test_keys_typed_while_the_review_loads_land_on_its_first_card(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        loaded = threading.Event()
        reviews = app.study.reviews
        read = reviews.queue
        reviews.queue = lambda: loaded.wait(10) and read()  # a cold start: the queue takes a while
        await pilot.press("r", "space", "3")  # revealed and graded before the card is on screen
        assert app.screen is app.home_screen
        loaded.set()
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and len(app.screen.session.given) == 1)
        assert app.screen.session.given[0].button == 3
        await pilot.press("escape")
        await pilot.press("s")  # home takes keys again: s opens the stats
        await wait_until(pilot, lambda: type(app.screen).__name__ == "StatsScreen")


@pytest.mark.slow
async def test_escape_from_a_typed_pitch_asks_before_the_text_is_lost(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_review(pilot)
        await pilot.press("t", *"ZeRO shards", "escape")  # out of the box, the text kept
        assert app.screen is screen
        await pilot.press("escape")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert app.screen is screen and screen.view.query_one("#typed", TextArea).text == "ZeRO shards"
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: app.screen is app.home_screen)
