"""A leech flagged by an answer whose result is on screen is said in that result, never in a notice
over it: an estimate's result in the review, a drill given up. Elsewhere it is a notice."""

from __future__ import annotations

import pytest
from helpers.content import estimates_only
from helpers.pilot import wait_until
from helpers.screen_steps import finish_drill, study_days
from helpers.screens import open_drill, open_review
from textual.widgets import Static
from textual.widgets._toast import Toast

from drill.coding.drills import item_id as drill_item
from drill.paths import Paths
from drill.schedule.leech import FAILED_RUN
from drill.tui.app import DrillApp

FAILED_BEFORE = tuple(range(FAILED_RUN - 1, 0, -1))  # the study days before today, each failed


def failed_days(paths, clock, item_id: str) -> None:
    """`item_id` failed on each of the FAILED_RUN - 1 study days before today: one more makes it a leech."""

    def fail(study, _n: int) -> None:
        [card] = study.reviews.cards([item_id])
        if card.kind == "coding":
            finish_drill(study, card, passed=False)
        else:
            study.reviews.save_grade(study.reviews.grade(card, 1, 1000))

    study_days(paths, clock, FAILED_BEFORE, fail)


def leech_notices(app) -> list[str]:
    return [str(n.message) for n in app._notifications if "A leech" in str(n.message)]


def on_screen(widget) -> bool:
    """Whether the top line of `widget` is drawn inside the screen, under no toast."""
    screen = widget.screen
    toasts = [toast.region for toast in screen.query(Toast)]
    top = widget.region.y
    return (
        widget.display and 0 <= top < screen.size.height and not any(t.contains(widget.region.x, top) for t in toasts)
    )


@pytest.mark.slow
async def test_an_estimate_made_a_leech_says_so_in_its_result_with_no_notice_over_it(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml")
    small_paths.ensure()
    failed_days(small_paths, clock, "estimate:kv-cache")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_review(pilot)
        await pilot.press("1", "space", "k", "B", "enter")  # far too low: the fourth failed day
        notice = screen.view.query_one("#leech-notice", Static)
        await wait_until(pilot, lambda: notice.display)
        await pilot.pause()
        said = str(notice.render())
        assert "A leech" in said and "failed 4 study days in a row" in said
        assert leech_notices(app) == [] and not screen.query(Toast)
        assert on_screen(notice) and on_screen(screen.view.query_one("#answer"))  # the result under it, in view
        await pilot.press("enter")  # the next card (its repeat): no leech line
        await wait_until(pilot, lambda: not screen.view.showing_result)
        assert not notice.display


@pytest.mark.slow
async def test_a_drill_given_up_into_a_leech_says_so_above_its_reference(drill_home, clock) -> None:
    app = DrillApp(Paths(drill_home), clock=clock)
    failed_days(app.paths, clock, drill_item("dpo-loss"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("g", "y")
        notice = screen.query_one("#drill-leech", Static)
        await wait_until(pilot, lambda: notice.display)
        await pilot.pause()
        assert "coding drill" in str(notice.render()) and "hints (h) first" in str(notice.render())
        assert leech_notices(app) == [] and not screen.query(Toast)
        assert on_screen(notice) and on_screen(screen.query_one("#drill-reference"))
        # The reference scrolled to again (s, or a scroll that lands after the notice's) keeps the
        # notice above it in view.
        body = screen.query_one("#drill-body")
        body.scroll_end(animate=False)
        await pilot.press("s")
        await wait_until(pilot, lambda: on_screen(notice))
        await pilot.pause()
        assert on_screen(notice) and on_screen(screen.query_one("#drill-reference"))
