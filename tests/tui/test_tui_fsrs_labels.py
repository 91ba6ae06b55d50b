"""With scheduler = "fsrs", the Footer's interval labels and the stored due day come from FSRS."""

from datetime import timedelta

import pytest
from helpers.pilot import db_rows
from helpers.screens import start_review

from drill.days import describe_interval
from drill.schedule import fsrs_model
from drill.tui.app import DrillApp


@pytest.mark.slow
async def test_labels_and_due_day_follow_fsrs(small_paths, clock) -> None:
    small_paths.ensure()
    small_paths.config.write_text('scheduler = "fsrs"\n')
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 24)) as pilot:
        screen = await start_review(pilot)
        today = app.study.today
        expected = {
            button: (fsrs_model.next_due_day(fsrs_model.replay([]), button, today) - today).days
            for button in (1, 2, 3, 4)
        }
        assert expected[4] > 1  # FSRS, unlike SM-2, gives a new card more than a day on Easy
        await pilot.press("space")
        labels = {key: b.binding.description for key, b in app.screen.active_bindings.items() if key in "1234"}
        assert labels["4"] == f"Easy {describe_interval(expected[4])}"
        assert labels["3"] == f"Good {describe_interval(expected[3])}"
        first = screen.session.current.item_id
        await pilot.press("4")
    [(due,)] = db_rows(app, f"SELECT due_day FROM item WHERE id = '{first}'")
    assert due == (today + timedelta(days=expected[4])).isoformat()
