"""History work begun by the open (the FSRS memory of reviews an older drill stored) runs after
home is shown, and the app says how far it has come and when it is done."""

from __future__ import annotations

from datetime import timedelta

from helpers.pilot import wait_until
from sqlalchemy import text

from drill.store import reschedule
from drill.study import Study
from drill.tui.app import DrillApp

UNFILL = "UPDATE review SET fsrs_stability_before = NULL, fsrs_difficulty_before = NULL"


def older_store(small_paths, clock) -> None:
    """Nine FSRS grades of three items, then the memory before each dropped, as an older drill left it."""
    small_paths.ensure()
    small_paths.config.write_text('scheduler = "fsrs"\nfuzz = false\n')
    study = Study.open(small_paths, clock)
    items = study.reviews.queue()[:3]
    for button in (3, 1, 3):
        for item_id in items:
            study.reviews.save_grade(study.reviews.grade(study.reviews.cards([item_id])[0], button, 1000)).result()
        clock.now += timedelta(days=3)
    with study.engine.begin() as connection:
        connection.execute(text(UNFILL))
    study.close()
    assert sorted(reschedule.reviews_without_memory(study.engine)) == sorted(items)


async def test_the_backfill_of_an_older_store_is_said_when_it_is_done(small_paths, clock, monkeypatch) -> None:
    monkeypatch.setattr(reschedule, "FILL_REVIEWS", 4)  # nine reviews: three writes, so it is said
    older_store(small_paths, clock)

    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        said = lambda: [n.message for n in app._notifications if n.title == "In the background"]  # noqa: E731
        await wait_until(pilot, lambda: any(message.endswith(": done") for message in said()))
        assert said()[-1] == f"{reschedule.Backfill.WHAT[0].upper()}{reschedule.Backfill.WHAT[1:]}: done"
        assert reschedule.reviews_without_memory(app.study.engine) == []


async def test_a_backfill_of_one_write_is_not_said(small_paths, clock) -> None:
    older_store(small_paths, clock)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.study is not None and app.study.backfill is not None)
        app.study.backfill.finished.result(timeout=30)
        await pilot.pause()
        assert not [n for n in app._notifications if n.title == "In the background"]
