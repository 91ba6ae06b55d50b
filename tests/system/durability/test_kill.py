"""Crash proof: a review session killed with SIGKILL at random moments loses no acknowledged grade,
and every grade handed over (journalled) is saved by a later start, none twice.

The session runs in a child forked from this process (drill already imported, so 100 runs cost
no interpreter start-ups). It grades cards the way the review screen does: study.reviews.grade, the
ReviewSession, and the write handed to study.reviews.save_grade; the Recorder's done callback reports
`ack <review_id> <item_id>` on a pipe only once the write has committed. Every run reuses one
database, so it grows across the kills.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import select
import shutil
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers.content import TestPaths, write_deck
from helpers.terminal import tmux, tmux_status

from drill.schedule.session import ReviewSession
from drill.study import Study

RUNS = 100
KILLED_WHILE_OPENING = 10  # of the runs, these are killed while the session opens (migrate, sync)
ITEMS = [f"k-{number}" for number in range(50)]
OPENING_KILL_S = 0.03  # a forked session takes tens of ms to open
GRADING_KILL_S = 0.1  # later kills land up to this long after the session opened
THINKING_S = 0.008  # the longest pause between two grades (a person, much faster); a commit takes a few ms
SAFETY_STOP_S = 60.0  # a child nobody kills stops by itself
KILL_INTO_BURST_S = 0.02  # the real app is killed this long after a burst of keys was sent


def review_until_killed(paths: TestPaths, pipe: int, seed: int) -> None:
    """Grade cards forever, as the review screen does; report when open, and each grade when given
    and when committed."""
    rng = random.Random(seed)

    def report(line: str) -> None:
        os.write(pipe, f"{line}\n".encode())  # one write of < PIPE_BUF bytes: never a torn line

    def acknowledge(item_id: str):
        def done(write) -> None:
            error = write.exception()
            report(f"fail {item_id} {error!r}" if error else f"ack {write.result()} {item_id}")

        return done

    study = Study.open(paths)
    report("opened")
    stop = time.monotonic() + SAFETY_STOP_S
    while time.monotonic() < stop:
        study.drain()  # the next session reads the states the last one committed
        session = ReviewSession(study.reviews.cards(ITEMS))
        while (card := session.current) is not None:
            grade = study.reviews.grade(card, rng.randint(1, 4), rng.randint(500, 20_000))
            session.answer(grade)
            saved = study.reviews.save_grade(grade)  # journalled when this returns: the screen counts it done
            report(f"give {card.item_id}")
            saved.add_done_callback(acknowledge(card.item_id))
            time.sleep(rng.uniform(0, THINKING_S))


@dataclass
class Run:
    """What one killed child said before it died."""

    opened: bool = False
    given: int = 0
    acked: dict[int, str] = field(default_factory=dict)  # review id → item id
    failures: list[str] = field(default_factory=list)

    @classmethod
    def parse(cls, output: str) -> Run:
        run = cls()
        for line in output.splitlines():
            kind, _, rest = line.partition(" ")
            if kind == "opened":
                run.opened = True
            elif kind == "give":
                run.given += 1
            elif kind == "ack":
                review_id, item_id = rest.split()
                run.acked[int(review_id)] = item_id
            else:
                run.failures.append(line)
        return run


def kill_one_run(paths: TestPaths, seed: int, delay: float, while_opening: bool) -> tuple[Run, int]:
    """Start a session and SIGKILL it `delay` seconds after its start (`while_opening`) or after it
    reported being open; return what it reported and its exit code."""
    read_end, write_end = os.pipe()
    child = multiprocessing.get_context("fork").Process(target=review_until_killed, args=(paths, write_end, seed))
    child.start()
    os.close(write_end)
    output = b""
    try:
        while not while_opening and b"opened\n" not in output:
            readable, _, _ = select.select([read_end], [], [], SAFETY_STOP_S)
            chunk = os.read(read_end, 65536) if readable else b""
            assert chunk, "the session died or hung before it opened"
            output += chunk
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.join()
    while chunk := os.read(read_end, 65536):
        output += chunk
    os.close(read_end)
    return Run.parse(output.decode()), child.exitcode


def database_rows(database: Path) -> tuple[str, dict[int, str], list[str]]:
    """integrity_check's verdict, every review id → item id, and each item's state beside the
    after-state of its latest review (which must match: a grade is one transaction)."""
    connection = sqlite3.connect(database)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if connection.execute("PRAGMA user_version").fetchone()[0] == 0:
            return integrity, {}, []  # the very first open was killed before its migration committed
        reviews = dict(connection.execute("SELECT id, item_id FROM review"))
        mismatched = [
            item_id
            for (item_id,) in connection.execute(
                """SELECT item.id FROM item JOIN review ON review.id =
                   (SELECT MAX(id) FROM review WHERE review.item_id = item.id)
               WHERE item.repetitions IS NOT review.reps_after OR item.interval IS NOT review.interval_after
                  OR item.easiness IS NOT review.ease_after OR item.due_day IS NOT review.due_after
               UNION ALL
               SELECT id FROM item WHERE last_review_day IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM review WHERE review.item_id = item.id)"""
            )
        ]
    finally:
        connection.close()
    return integrity, reviews, mismatched


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork() and SIGKILL (POSIX)")
@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_an_acknowledged_grade(drill_home: Path, deck_dir: Path) -> None:
    write_deck(deck_dir, "fifty.toml", [(item_id, "memory") for item_id in ITEMS])
    paths = TestPaths(drill_home, deck_dir)
    delays = random.Random(20261122)
    opening = mid_write = between_writes = 0
    known: dict[int, str] = {}
    given = 0  # grades handed over in every run so far
    for run_number in range(RUNS):
        while_opening = run_number % (RUNS // KILLED_WHILE_OPENING) == 0
        delay = delays.uniform(0, OPENING_KILL_S if while_opening else GRADING_KILL_S)
        run, exit_code = kill_one_run(paths, run_number, delay, while_opening)
        assert exit_code == -signal.SIGKILL, f"run {run_number}: the session ended by itself ({exit_code})"
        assert run.failures == [], f"run {run_number}: {run.failures}"
        integrity, reviews, mismatched = database_rows(paths.database)
        assert integrity == "ok", f"run {run_number}: {integrity}"
        lost = {review_id for review_id in run.acked if reviews.get(review_id) != run.acked[review_id]}
        assert not lost, f"run {run_number}: acknowledged reviews {sorted(lost)} are not in the database"
        assert known.items() <= reviews.items(), f"run {run_number}: an earlier run's review vanished"
        new = len(reviews) - len(known)
        given += run.given
        assert len(run.acked) <= new and len(reviews) <= given + run_number + 1, (  # + one being handed over per kill
            f"run {run_number}: {new} new rows for {run.given} grades given ({len(reviews)} stored of {given} in all)"
        )
        assert mismatched == [], f"run {run_number}: half-written grades for {mismatched}"
        known = reviews
        if not run.opened:
            opening += 1
        elif len(run.acked) < run.given:
            mid_write += 1
        else:
            between_writes += 1
    # Kills must have landed in every phase, or this test proved less than it claims.
    assert opening and mid_write and between_writes, (opening, mid_write, between_writes)
    study = Study.open(paths)  # the database opens once more, saving what the last run kept in its journal
    try:
        assert given <= study.browsing.home().reviews_total <= given + RUNS  # every grade handed over is saved
        with study.engine.connect() as connection:  # and none twice
            assert (
                connection.exec_driver_sql(
                    "SELECT COUNT(*) FROM (SELECT DISTINCT item_id, reviewed_at FROM review)"
                ).scalar()
                == study.browsing.home().reviews_total
            )
    finally:
        study.close()


# -- the real app, in a real terminal --------------------------------------------------------


def wait_for(check, what: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := check():
            return result
        time.sleep(0.05)
    raise AssertionError(f"{what} never happened")


def review_count(database: Path) -> int:
    connection = sqlite3.connect(database)
    try:
        return connection.execute("SELECT COUNT(*) FROM review").fetchone()[0]
    finally:
        connection.close()


def start_drill_review(session: str, drill_home: Path) -> int:
    """`drill review` in a detached tmux session; return the app's process id."""
    command = f"exec env DRILL_HOME={drill_home} {sys.executable} -m drill review"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    return int(tmux("display-message", "-p", "-t", session, "#{pane_pid}"))


def screen_shows(session: str, text: str):
    return lambda: text in tmux("capture-pane", "-p", "-t", session)


def pid_alive(pid: int) -> bool:
    """Whether the process runs: a zombie (killed, not yet reaped by the tmux server, which a loaded
    machine may take a while to do) has stopped running."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): signal 0 reaching it is all there is


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_sigkill_of_the_real_app_keeps_its_grades(drill_home: Path) -> None:
    """Three grades committed, a burst of keys, SIGKILL mid-burst: the three survive, the database
    is whole, and `drill review` opens on it again."""
    session = f"drill-kill-{os.getpid()}-{time.monotonic_ns()}"
    pid = start_drill_review(session, drill_home)
    try:
        wait_for(screen_shows(session, "Show answer"), "the review screen")
        for done, button in enumerate(("3", "1", "4"), start=1):
            tmux("send-keys", "-t", session, "Space")
            wait_for(screen_shows(session, "Easy"), "the reveal")
            tmux("send-keys", "-t", session, button)
            wait_for(screen_shows(session, f"{done} done"), f"grade {done} on screen")
        wait_for(lambda: review_count(drill_home / "drill.db") == 3, "the third commit")
        tmux("send-keys", "-t", session, *["Space", "3"] * 10)
        time.sleep(KILL_INTO_BURST_S)
        os.kill(pid, signal.SIGKILL)  # raises if the app had already gone
        wait_for(lambda: not pid_alive(pid), "the kill")
    finally:
        tmux_status("kill-session", "-t", session)
    integrity, _, mismatched = database_rows(drill_home / "drill.db")
    assert integrity == "ok"
    assert mismatched == []
    connection = sqlite3.connect(drill_home / "drill.db")
    buttons = [button for (button,) in connection.execute("SELECT button FROM review ORDER BY id")]
    connection.close()
    assert buttons[:3] == [3, 1, 4]
    assert set(buttons[3:]) <= {3} and len(buttons) <= 13  # of the burst, only whole grades

    again = f"{session}-again"
    start_drill_review(again, drill_home)
    try:
        wait_for(screen_shows(again, "Show answer"), "the review screen after the kill")
    finally:
        tmux_status("kill-session", "-t", again)
