"""Writes the screen counted as done survive a busy database: they wait (said on screen), quitting
waits a bounded time and keeps the rest in a journal, and the next start makes them."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from helpers.pilot import wait_ready, wait_until

from drill.store.journal import Journal, claimed
from drill.store.pending_writes import REFUSED, replay
from drill.store.recorder import Recorder
from drill.study import Study
from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen


class Busy(Exception):
    """Stands for "database is locked"."""


def test_an_unsettled_write_outlives_its_process_and_a_settled_one_does_not(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    kept = journal.add("suspend", ["m-1", True])
    journal.settle(journal.add("suspend", ["m-2", True]))
    with claimed(tmp_path) as others:
        assert others == []  # a running drill's journal is its own
    journal.close()
    with journal.path.open("a") as torn:
        torn.write('{"key": "half')  # the process died mid-line
    with claimed(tmp_path) as others:
        assert [[(entry.key, entry.op, entry.args) for entry in other.entries] for other in others] == [
            [(kept, "suspend", ["m-1", True])]
        ]
        others[0].settle(kept)
    assert list(tmp_path.iterdir()) == []  # every write made: the file is gone


def test_replay_makes_open_writes_in_order_keeps_refused_ones_and_stops_when_busy(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    for item in ("a", "bad", "b", "busy", "c"):
        journal.add("suspend", [item, True])
    journal.add("no-such-write", [])
    journal.close()
    made = []

    def make(op: str, arguments: tuple) -> None:
        if arguments[0] == "bad":
            raise ValueError("no such item")
        if arguments[0] == "busy" and len(made) < 3:
            made.append("tried")
            raise Busy()
        made.append(arguments[0])

    first = replay(tmp_path, make, lambda error: isinstance(error, Busy))
    assert (first.made, first.refused, first.waiting) == (2, 1, 3)
    assert made == ["a", "b", "tried"]
    second = replay(tmp_path, make, lambda error: isinstance(error, Busy))
    assert (second.made, second.refused, second.waiting) == (2, 1, 0)  # busy and c; the unknown write is refused
    assert made == ["a", "b", "tried", "busy", "c"]
    refused = [json.loads(line) for line in (tmp_path / REFUSED).read_text().splitlines()]
    assert [(entry["op"], entry["error"]) for entry in refused] == [
        ("suspend", "no such item"),
        ("no-such-write", "unknown write 'no-such-write'"),
    ]
    assert [path.name for path in tmp_path.iterdir()] == [REFUSED]


def test_a_busy_write_is_said_once_and_tried_until_it_commits(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("drill.store.recorder.RETRY_PAUSE_S", 0.01)
    tries, said = [], []
    recorder = Recorder(Journal(tmp_path), lambda error: isinstance(error, Busy))
    recorder.on_waiting = said.append

    def write() -> int:
        tries.append(1)
        if len(tries) < 5:
            raise Busy()
        return 7

    assert recorder.submit("the grade of m-1", write, journalled=("suspend", ["m-1", True])).result(5) == 7
    assert (len(tries), said) == (5, ["the grade of m-1"])
    assert recorder.close(1) == 0
    assert recorder.journal is not None and recorder.journal.open_writes == 0


def test_closing_while_the_database_stays_busy_keeps_the_writes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("drill.store.recorder.RETRY_PAUSE_S", 0.01)
    journal = Journal(tmp_path)
    recorder = Recorder(journal, lambda error: isinstance(error, Busy))

    def busy() -> None:
        raise Busy()

    for item in ("m-1", "m-2", "m-3"):
        recorder.submit(f"the grade of {item}", busy, journalled=("suspend", [item, True]))
    started = time.monotonic()
    assert recorder.close(0.2) == 3
    assert time.monotonic() - started < 3
    journal.close()
    with claimed(tmp_path) as others:
        assert [entry.args[0] for entry in others[0].entries] == ["m-1", "m-2", "m-3"]


@pytest.mark.slow
async def test_quit_with_the_database_locked_keeps_every_grade_and_the_next_start_saves_them(
    small_paths, clock, monkeypatch, capsys
) -> None:
    monkeypatch.setattr("drill.study.core.QUIT_WAIT_S", 0.5)
    monkeypatch.setattr("drill.store.recorder.SLOW_WRITE_S", 0.1)
    before = set(threading.enumerate())  # writers other tests of this process left waiting are not this app's
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        lock = sqlite3.connect(small_paths.database, isolation_level=None, check_same_thread=False)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        lock.execute("BEGIN IMMEDIATE")  # another program holds the write lock from here on
        graded = []
        for _ in range(3):
            graded.append(screen.session.current.item_id)
            await pilot.press("space", "3")
        assert str(screen.query_one("#status").render()).startswith("3 done · ")
        await wait_until(
            pilot, lambda: any("Another drill is writing" in str(notice.message) for notice in app._notifications)
        )
        started = time.monotonic()
        await pilot.press("ctrl+q")
    assert time.monotonic() - started < 5  # bounded, not 15 s per pending grade
    journal = app.study.journal
    said = f"drill: 3 writes could not be saved yet (another program holds the database); kept in {journal} and saved"
    assert "".join(said.split()) in "".join(capsys.readouterr().err.split())  # printed on exit, however wrapped
    assert journal.exists()
    lock.rollback()
    lock.close()
    for thread in set(threading.enumerate()) - before:  # this app's writer may still finish the write it was in
        if thread.name == "drill-writer":
            thread.join(30)
    lines = []
    study = Study.open(small_paths, clock, say=lines.append)
    try:
        with study.engine.connect() as connection:
            stored = [row[0] for row in connection.exec_driver_sql("SELECT item_id FROM review ORDER BY id")]
    finally:
        study.close()
    assert stored == graded
    assert len(lines) <= 1 and not journal.exists()
