"""A background worker that raises is said in a notice through one table, and the app goes on."""

from helpers.pilot import wait_ready, wait_until

from drill.tui.app import DrillApp
from drill.tui.screens.home import HomeScreen
from drill.tui.workers import SHOWN, UNLISTED, failure_notice


def notices(app) -> list[str]:
    return [str(notice.message) for notice in app._notifications]


async def test_a_failing_queue_load_is_said_and_the_app_stays_on_home(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)

        def lost() -> list[str]:
            raise ConnectionError("server closed the connection unexpectedly")

        working, app.study.reviews.queue = app.study.reviews.queue, lost
        await pilot.press("r")
        await wait_until(pilot, lambda: any(SHOWN["study"] in text for text in notices(app)))
        assert any("server closed the connection unexpectedly" in text for text in notices(app))
        assert app.is_running and isinstance(app.screen, HomeScreen)
        app.study.reviews.queue = working
        await pilot.press("r")  # the next try works
        await wait_until(pilot, lambda: not isinstance(app.screen, HomeScreen))


async def test_a_failing_stats_load_is_said_on_the_stats_screen(small_paths, clock, monkeypatch) -> None:
    import drill.stats.report

    def broken(*args, **kwargs):
        raise RuntimeError("no such column: review.counted")

    monkeypatch.setattr(drill.stats.report, "load_report", broken)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: any(SHOWN["stats"] in text for text in notices(app)))
        assert app.is_running


def test_every_group_has_a_line_and_an_unknown_group_a_generic_one() -> None:
    class Failed:
        def __init__(self, group: str) -> None:
            self.group, self.error = group, ValueError("boom")

    assert failure_notice(Failed("stats")) == f"{SHOWN['stats']}: boom"
    assert failure_notice(Failed("prewarm")) is None
    assert failure_notice(Failed("something-new")) == f"{UNLISTED}: boom"
