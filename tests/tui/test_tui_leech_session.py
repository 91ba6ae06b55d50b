"""A card that becomes a leech during a review is flagged at once but left alone until the session
ends: its repeat still comes and is answered, and back home it is suspended and still listed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers.pilot import db_rows, wait_until
from helpers.screens import start_review

from drill.store.browse import item_rows
from drill.study import Study
from drill.tui.app import DrillApp


def learned_yesterday(paths, clock, item_id: str) -> None:
    """`item_id` passed yesterday (due today), with leech_threshold = 1: its next Again makes it a leech."""
    paths.ensure()
    paths.config.write_text("leech_threshold = 1\n")
    clock.now -= timedelta(days=1)
    study = Study.open(paths, clock)
    card = study.reviews.cards([item_id])[0]
    study.reviews.save_grade(study.reviews.grade(card, 3, 1000))
    study.close()
    clock.now += timedelta(days=1)


def suspended(app, item_id: str) -> bool:
    return db_rows(app, f"SELECT suspended FROM item WHERE id = '{item_id}'") == [(1,)]


@pytest.mark.slow
async def test_a_card_flagged_mid_session_is_suspended_when_the_session_ends(small_paths, clock) -> None:
    learned_yesterday(small_paths, clock, "m-1")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_review(pilot)
        assert screen.session.current.item_id == "m-1"  # due: before the new cards
        await pilot.press("space", "1")  # a lapse: a leech at threshold 1
        await wait_until(pilot, lambda: any("A leech" in str(n.message) for n in app._notifications))
        assert not suspended(app, "m-1") and "m-1" in screen.session.order  # it comes back in this session
        while screen.session.current.item_id != "m-1":
            await pilot.press("space", "3")
        await pilot.press("space", "3")  # its repeat, answered right
        assert not suspended(app, "m-1")
        await pilot.press("escape")
        await wait_until(pilot, lambda: suspended(app, "m-1"))
        [row] = [row for row in item_rows(app.study.engine, 1) if row.item_id == "m-1"]
        assert row.leech and row.suspended  # the browser and `drill list --leech` still list it
