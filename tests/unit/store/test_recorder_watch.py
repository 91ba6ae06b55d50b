"""The writer's one watcher: a write blocked on the database's write lock (inside SQLite's own busy
wait, so nothing is raised) is said once it is slow; quick writes are never said and start no
thread of their own."""

import threading
import time

from drill.store.busy import acquiring_write_lock
from drill.store.recorder import Recorder


def test_a_write_blocked_on_the_write_lock_is_said_once_and_quick_ones_start_no_thread(monkeypatch) -> None:
    monkeypatch.setattr("drill.store.recorder.SLOW_WRITE_S", 0.1)
    said: list[str] = []
    recorder = Recorder()
    recorder.on_waiting = said.append

    def blocked() -> int:
        with acquiring_write_lock():  # as the begin of a write transaction marks its wait
            time.sleep(0.6)
        return 7

    started: list[str] = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread.name) or start(thread))
    assert [recorder.submit(f"quick {n}", lambda n=n: n).result(5) for n in range(20)] == list(range(20))
    assert started == [] and said == []
    assert recorder.submit("the grade of m-1", blocked).result(5) == 7
    assert said == ["the grade of m-1"]
    assert recorder.close(1) == 0


def test_a_slow_write_that_does_not_wait_for_the_lock_is_not_said(monkeypatch) -> None:
    monkeypatch.setattr("drill.store.recorder.SLOW_WRITE_S", 0.1)
    said: list[str] = []
    recorder = Recorder()
    recorder.on_waiting = said.append
    assert recorder.submit("a long import", lambda: time.sleep(0.4) or 1).result(5) == 1
    assert said == [] and recorder.close(1) == 0
