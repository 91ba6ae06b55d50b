"""The one write path: every write goes through the study's writer, and every failure is said."""

import shutil
import sqlite3
import threading

import pytest
from helpers.pilot import db_rows, wait_ready, wait_until
from helpers.screens import open_setup

from drill.store.recorder import Recorder, WriteFailures
from drill.study.writes import PENDING
from drill.tui.app import DrillApp
from drill.tui.screens.mock.round import MockRoundScreen
from drill.tui.screens.review import ReviewScreen


def test_drain_names_every_failed_write_in_order() -> None:
    reported = []
    recorder = Recorder(on_failure=reported.append)

    def fail(message: str) -> None:
        raise OSError(message)

    recorder.submit("first", fail, "disk full")
    kept = recorder.submit("second", lambda: 42)
    recorder.submit("third", fail, "read-only")
    with pytest.raises(WriteFailures) as raised:
        recorder.drain()
    assert [str(failure) for failure in raised.value.failures] == ["first: disk full", "third: read-only"]
    assert kept.result() == 42
    assert [failure.what for failure in reported] == ["first", "third"]
    recorder.drain()  # the failures were reported once; a later drain has nothing new
    recorder.close()


def test_writes_keep_their_order_off_the_calling_thread() -> None:
    recorder = Recorder()
    threads, seen = [], []
    for n in range(20):
        recorder.submit(f"write {n}", lambda n=n: (seen.append(n), threads.append(threading.current_thread())))
    recorder.drain()
    assert seen == list(range(20))
    assert threading.current_thread() not in threads
    recorder.close()


@pytest.fixture
def app(drill_home, clock):
    from drill.paths import Paths

    return DrillApp(Paths(drill_home), clock=clock)


def refuse(*args) -> None:
    raise sqlite3.OperationalError("disk I/O error")


def messages(app) -> list[str]:
    return [str(notice.message) for notice in app._notifications]


def rows(app, sql: str) -> list[tuple]:
    """What was stored, once the writes (some failed on purpose, already said) have settled."""
    app.study.settle()
    return db_rows(app, sql)


@pytest.mark.slow
async def test_a_failed_grade_is_said_and_not_stored(app, monkeypatch) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        monkeypatch.setitem(PENDING, "grade", refuse)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        card = app.screen.session.current
        if card.kind == "estimate":
            await pilot.press(*"1 GB", "enter")
        else:
            await pilot.press("space", "3")
        await wait_until(pilot, lambda: any("Not saved" in text for text in messages(app)))
        assert any(card.item_id in text and "disk I/O error" in text for text in messages(app))
    assert rows(app, "SELECT COUNT(*) FROM review") == [(0,)]


@pytest.mark.slow
async def test_a_failed_mock_round_answer_is_said_and_not_stored(app, monkeypatch) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await open_setup(pilot, 5)
        monkeypatch.setitem(PENDING, "round_answer", refuse)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, MockRoundScreen))
        await pilot.press(*app.screen.problems[0].pretty, "enter")
        await wait_until(pilot, lambda: any("Not saved" in text for text in messages(app)))
        assert any("mock-round answer" in text for text in messages(app))
    assert rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]


@pytest.mark.slow
async def test_a_grade_that_failed_comes_back_and_is_saved_when_graded_again(small_paths, clock, monkeypatch) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        monkeypatch.setitem(PENDING, "grade", refuse)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        failed = screen.session.current.item_id
        await pilot.press("space", "3")
        await wait_until(pilot, lambda: any("Not saved" in text for text in messages(app)))
        await wait_until(pilot, lambda: failed in list(screen.session.order)[:2])
        assert screen.session.given == [] and screen.pending == []
        assert list(screen.session.order)[1] == failed  # next after the card on screen
        monkeypatch.undo()  # the store is back
        await pilot.press("space", "3")
        assert screen.session.current.item_id == failed
        assert str(screen.query_one("#status").render()).startswith("1 done · ")  # only the saved grade counts
        await pilot.press("space", "4")
        stored = rows(app, "SELECT item_id, button FROM review ORDER BY id")
        assert stored[-1] == (failed, 4) and len(stored) == 2


@pytest.mark.slow
async def test_a_failed_coding_attempt_write_is_said_and_not_stored(drill_home, clock, monkeypatch) -> None:
    from helpers.content import KERNELS
    from helpers.screens import open_drill

    from drill.paths import Paths

    monkeypatch.delenv("EDITOR", raising=False)
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "quantize-per-channel")
        monkeypatch.setitem(PENDING, "coding", refuse)
        shutil.copy(KERNELS / "quantize-per-channel" / "solution.py", screen.workspace.solution)
        await pilot.press("t")
        await wait_until(pilot, lambda: any("Not saved" in text for text in messages(app)), timeout=120)
        assert any("quantize-per-channel" in text and "disk I/O error" in text for text in messages(app))
    assert rows(app, "SELECT COUNT(*) FROM coding_attempt") == [(0,)]
    assert rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
