"""Home after a session: `u` takes back the last grade or suspension of the review just left; a content file
broken meanwhile (in the card editor here) is named at once, at its line, and `e` reopens it there;
with an interview date, the readiness on the day and the pace to the target."""

from __future__ import annotations

import contextlib

import pytest
from helpers.editor import fake_editor
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Static

from drill.store.forecast import plan_reach
from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen, card_name


@pytest.fixture(autouse=True)
def headless_suspend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DrillApp, "suspend", lambda self: contextlib.nullcontext())  # headless has no tty
    monkeypatch.delenv("VISUAL", raising=False)


def shown(app, selector: str) -> str:
    return str(app.home_screen.query_one(selector, Static).render())


async def grade_two_then_go_home(pilot) -> list[str]:
    """Good on the first two cards of today's review, then home; the items graded, in order."""
    await wait_ready(pilot)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    screen = pilot.app.screen
    graded = []
    for _ in range(2):
        graded.append(screen.session.current.item_id)
        await pilot.press("space", "3")
    await pilot.press("escape")
    await wait_until(pilot, lambda: pilot.app.screen is pilot.app.home_screen)
    return graded


async def test_u_on_home_undoes_the_last_grade_of_the_session_left(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        first, second = await grade_two_then_go_home(pilot)
        assert db_rows(app, "SELECT item_id FROM review ORDER BY id") == [(first,), (second,)]
        assert app.home_screen.check_action("undo", ())
        await pilot.press("u")
        await wait_until(pilot, lambda: db_rows(app, "SELECT item_id FROM review") == [(first,)])
        assert db_rows(app, f"SELECT last_review_day FROM item WHERE id = '{second}'") == [(None,)]  # new again
        [card] = app.study.reviews.cards([second])
        assert f"Undid Good on {card_name(card)}" in [str(note.message) for note in app._notifications]
        await pilot.press("u")
        await wait_until(pilot, lambda: db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)])
        assert not app.home_screen.check_action("undo", ())  # nothing left to take back
        await wait_until(pilot, lambda: "1 review done today" not in shown(app, "#headline"))


async def test_a_deck_broken_in_the_editor_is_named_on_home_and_e_reopens_it_there(
    small_paths, clock, tmp_path, monkeypatch
) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        assert not app.home_screen.query_one("#problems").display
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        item_id = app.screen.session.current.item_id
        log = fake_editor(tmp_path, monkeypatch, f's/"Answer of {item_id}\\."/"Answer of {item_id}./')  # unterminated
        await pilot.press("space", "e")  # the answer shown, then the editor
        await wait_until(pilot, lambda: any("has an error" in str(note.title) for note in app._notifications))
        deck = small_paths.overrides
        await pilot.press("escape")
        await wait_until(pilot, lambda: f"broken content file: {deck}:" in shown(app, "#problems"))
        line = int(shown(app, "#problems").split(f"{deck}:")[1].split(":")[0])
        broken = deck.read_text().splitlines()
        assert f'"Answer of {item_id}.' in broken[line - 1] or f'"Answer of {item_id}.' in broken[line - 2]
        assert app.home_screen.check_action("fix_content", ())
        fake_editor(tmp_path, monkeypatch, f's/"Answer of {item_id}\\.$/"Answer of {item_id}."/')  # mended
        await pilot.press("e")
        await wait_until(pilot, lambda: not app.home_screen.query_one("#problems").display)
        assert log.read_text().splitlines()[-1] == f"+{line} {deck}"
        assert not app.home_screen.check_action("fix_content", ())


async def test_home_says_the_readiness_on_the_interview_day_and_the_pace_to_the_target(small_paths, clock) -> None:
    small_paths.home.mkdir(parents=True, exist_ok=True)
    (small_paths.home / "config.toml").write_text("interview_date = 2026-12-06\n")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot)
        await wait_until(pilot, lambda: app.home_screen.has_class("readiness-read"))
        study = app.study
        plan = study.browsing.home().plan
        reach = plan_reach(study.engine, study.config, study.today, study.fsrs_settings, plan.new_per_day)
        assert shown(app, "#readiness").splitlines() == reach.said()[:2]
        assert shown(app, "#readiness").startswith("Readiness on the interview day: ")


async def test_without_an_interview_date_home_says_no_readiness(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_ready(pilot)
        assert not app.home_screen.query_one("#readiness").display


async def test_u_on_home_takes_back_a_suspension_made_last_in_the_session(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
        item_id = app.screen.session.current.item_id
        await pilot.press("s", "escape")
        await wait_until(pilot, lambda: app.screen is app.home_screen)
        await wait_until(pilot, lambda: db_rows(app, f"SELECT suspended FROM item WHERE id = '{item_id}'") == [(1,)])
        assert app.home_screen.check_action("undo", ())
        await pilot.press("u")
        await wait_until(pilot, lambda: db_rows(app, f"SELECT suspended FROM item WHERE id = '{item_id}'") == [(0,)])
        [card] = app.study.reviews.cards([item_id])
        assert f"Unsuspended {card_name(card)}" in [str(note.message) for note in app._notifications]
        assert not app.home_screen.check_action("undo", ())
