"""No wait on PostgreSQL is silent or endless: a client holding drill's write lock makes a grade
wait (said to the screen) and it commits once the lock is free; a drill session stuck inside a
transaction is ended by the server; opening while the lock stays held is one clear error."""

from __future__ import annotations

import time

import psycopg
import pytest

from drill.store.damage import DatabaseBusyError
from drill.store.postgres import WRITE_LOCK
from drill.study import Study
from drill.study.writes import write_grade


def hold_write_lock(url: str) -> psycopg.Connection:
    """Another client, holding drill's write lock until it rolls back."""
    holder = psycopg.connect(url)
    holder.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    return holder


@pytest.mark.slow
def test_a_grade_waits_for_a_held_write_lock_says_so_and_commits_when_it_is_free(
    pg_url, small_paths, clock, monkeypatch
) -> None:
    monkeypatch.setattr("drill.store.recorder.SLOW_WRITE_S", 0.2)
    study = Study.open(small_paths, clock)
    waiting: list[str] = []
    study.on_write_waiting(waiting.append)
    try:
        grade = study.reviews.grade(study.reviews.cards(study.reviews.queue())[0], 3, 1_000)
        holder = hold_write_lock(pg_url)
        saved = study.reviews.save_grade(grade)
        deadline = time.monotonic() + 10
        while not waiting and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting == [f"the grade of {grade.item_id}"] and not saved.done()
        time.sleep(6)  # past lock_timeout (5 s): the write timed out once and is being tried again
        assert not saved.done() and study.writes_waiting == 1
        holder.rollback()
        assert isinstance(saved.result(timeout=15), int)
        assert study.settle() == []
    finally:
        study.close()


@pytest.mark.slow
def test_a_drill_stuck_inside_a_transaction_is_ended_by_the_server(pg_url, small_paths, clock, monkeypatch) -> None:
    monkeypatch.setattr(
        "drill.store.postgres.SESSION_OPTIONS", "-c lock_timeout=5s -c idle_in_transaction_session_timeout=1s"
    )
    stuck = Study.open(small_paths, clock)
    connection = stuck.engine.execution_options(write=True).connect()
    connection.begin()  # takes the write lock, then hangs (a suspended terminal)
    study = Study.open(small_paths, clock)  # waits (lock_timeout 5 s) at most; the server ends the stuck one at 1 s
    try:
        review = write_grade(study, study.reviews.grade(study.reviews.cards(study.reviews.queue())[0], 3, 1_000))
        assert isinstance(review, int)
    finally:
        study.close()
        connection.invalidate()
        stuck.close(0)


@pytest.mark.slow
def test_opening_while_another_client_keeps_the_write_lock_is_one_clear_error(pg_url, small_paths, clock) -> None:
    Study.open(small_paths, clock).close()
    (small_paths.decks / "a.toml").write_text((small_paths.decks / "a.toml").read_text().replace("Topic", "Edited"))
    holder = hold_write_lock(pg_url)
    try:
        started = time.monotonic()
        with pytest.raises(DatabaseBusyError, match="another drill"):
            Study.open(small_paths, clock)  # the edited deck needs a write
        assert time.monotonic() - started < 15
    finally:
        holder.rollback()
        holder.close()
