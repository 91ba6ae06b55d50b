"""Pitch items: a timer against the target, the reference answer and checklist on reveal."""

import pytest
from helpers.content import pitch_only
from helpers.footer import cut_keys, footer_keys, footer_labels
from helpers.pilot import db_rows
from helpers.screens import start_review
from textual.widgets import Markdown, TextArea

from drill.tui.app import DrillApp
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.pitch_timer import PitchTimer


@pytest.mark.slow
async def test_pitch_timer_reveal_checklist_and_stored_duration(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_review(pilot)
        view = screen.view
        timer = view.query_one(PitchTimer)
        assert timer.display and "target 0:30" in str(timer.render())
        await pilot.press("t")
        assert app.focused is screen.view.query_one("#typed", TextArea)
        await pilot.press("F", "S", "D", "P", "tab")
        assert screen.view.query_one("#typed", TextArea).text == "FSDP"
        await pilot.pause(0.3)
        await pilot.press("space")
        assert "time taken" in str(timer.render())
        assert "Your time" in screen.view.query_one("#answer", Markdown).source
        assert "FSDP is ZeRO-3" in screen.view.query_one("#points", Checklist).points
        await pilot.pause(0.5)  # reading the reference answer is not speaking time
        await pilot.press("3")
    [(duration,)] = db_rows(app, "SELECT duration_ms FROM review")
    assert duration == int(view.pitch_seconds * 1000) and duration >= 300


@pytest.mark.slow
async def test_escape_leaves_the_answer_box_and_keeps_the_text(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_review(pilot)
        await pilot.press("t", "Z", "e", "R", "O", "escape")
        assert app.screen is screen and app.focused is None
        assert screen.view.query_one("#typed", TextArea).text == "ZeRO"
        await pilot.press("escape", "y")  # out of the box, Escape goes home, once it is sure the text may go
        assert app.screen is app.home_screen


@pytest.mark.slow
async def test_the_checklist_ticks_by_keyboard_and_suggests_a_grade(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_review(pilot)
        view = screen.view
        await pilot.press("space", "tab")  # reveal, then into the checklist
        checklist = view.query_one("#points", Checklist)
        assert app.focused is checklist and len(checklist.points) == 2
        suggestion = view.query_one("#suggestion")
        assert not suggestion.display  # nothing ticked yet: no grade suggested
        await pilot.press("space")
        assert suggestion.display
        assert view.ticked() == [0] and str(suggestion.render()) == "1 of 2 ticked: suggests 2 Hard"
        assert str(checklist.get_option_at_index(0).prompt).startswith("[x] ")
        await pilot.press("down", "enter")
        assert view.ticked() == [0, 1] and str(suggestion.render()) == "2 of 2 ticked: suggests 3 Good"
        await pilot.press("space", "up", "space")  # untick both: once ticking has begun, none ticked suggests Again
        assert view.ticked() == [] and str(checklist.get_option_at_index(1).prompt).startswith("[ ] ")
        assert str(suggestion.render()) == "0 of 2 ticked: suggests 1 Again"
        await pilot.press("3")  # the grade keys work from the checklist
    assert db_rows(app, "SELECT button FROM review") == [(3,)]


@pytest.mark.slow
async def test_the_typed_answer_and_the_ticks_are_stored_with_the_review(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_review(pilot)
        await pilot.press("t", *"ZeRO shards", "escape")  # typed, then out of the box
        await pilot.press("space", "tab", "down", "space", "3")  # reveal, tick the second point, Good
    assert db_rows(app, "SELECT typed_answer, ticked FROM review") == [("ZeRO shards", "[1]")]


@pytest.mark.slow
async def test_the_answer_box_shows_three_lines_grows_with_the_answer_then_scrolls(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        await pilot.press("t")
        typed = screen.view.query_one("#typed", TextArea)
        empty = typed.outer_size.height
        assert empty >= 5  # three lines inside its border
        for line in range(6):
            await pilot.press(*f"point {line}", "enter")
        assert typed.outer_size.height == empty + 4  # seven lines now, all in view
        for line in range(20):
            await pilot.press(*f"more {line}", "enter")
        assert typed.outer_size.height <= 12 and typed.scroll_offset.y > 0  # capped, scrolled to the cursor
        assert screen.view.query_one(PitchTimer).region.y >= 0 and typed.region.bottom <= 23


@pytest.mark.slow
async def test_in_the_answer_box_the_footer_says_escape_or_tab_leaves_it(small_paths, clock) -> None:
    pitch_only(small_paths)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_review(pilot)
        assert footer_labels(screen)["escape"] == "Home"
        await pilot.press("t", *"ZeRO")
        keys = footer_keys(screen)
        assert keys["escape"].description == "Leave box, keep text" and keys["escape"].key_display == "esc/tab"
        assert cut_keys(screen) == []
        await pilot.press("tab")
        assert app.focused is not screen.view.query_one("#typed", TextArea)
        assert footer_labels(screen)["escape"] == "Home"
