"""A real terminal: `drill review` under tmux, keys sent as a person would type them."""

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.terminal import tmux, tmux_status

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"),
]


CLOSES = 8  # terminals closed on a busy machine
BURNERS = 2  # processes that keep it busy (as busy as CI's two test workers keep it)


def wait_for_screen(session: str, text: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never appeared; the screen shows:\n{screen}")


def test_review_reveal_grade_quit_in_a_real_terminal(drill_home: Path) -> None:
    session = f"drill-test-{time.monotonic_ns()}"
    command = f"DRILL_HOME={drill_home} {sys.executable} -m drill review"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        screen = wait_for_screen(session, "Show answer")
        assert "0 done" in screen
        tmux("send-keys", "-t", session, "Space")
        wait_for_screen(session, "Good")
        tmux("send-keys", "-t", session, "3")
        wait_for_screen(session, "1 done")
        tmux("send-keys", "-t", session, "Space")
        wait_for_screen(session, "Again")
        tmux("send-keys", "-t", session, "1")
        wait_for_screen(session, "2 done")
        tmux("send-keys", "-t", session, "C-q")
        deadline = time.monotonic() + 15
        while tmux_status("has-session", "-t", session) == 0:
            assert time.monotonic() < deadline, "drill did not quit on ctrl+q"
            time.sleep(0.1)
    finally:
        tmux_status("kill-session", "-t", session)
    rows = sqlite3.connect(drill_home / "drill.db").execute("SELECT button, counted FROM review ORDER BY id").fetchall()
    assert rows == [(3, 1), (1, 1)]


def running(pid: int) -> bool:
    """Whether the process `pid` is alive (a zombie has ended)."""
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except FileNotFoundError:
        return False


def test_closing_the_terminal_while_the_database_is_locked_keeps_every_grade(drill_home: Path) -> None:
    """Two grades wait for a database another program has locked; the terminal is closed (SIGHUP):
    the next start saves both."""
    session = f"drill-test-{time.monotonic_ns()}"
    command = f"DRILL_HOME={drill_home} {sys.executable} -m drill review"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    lock = None
    try:
        wait_for_screen(session, "Show answer")
        pid = int(tmux("list-panes", "-t", session, "-F", "#{pane_pid}").split()[0])
        lock = sqlite3.connect(drill_home / "drill.db", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        for done in ("1 done", "2 done"):
            tmux("send-keys", "-t", session, "Space")
            wait_for_screen(session, "Good")
            tmux("send-keys", "-t", session, "3")
            wait_for_screen(session, done)
        wait_for_screen(session, "Another drill is writing")
    finally:
        tmux_status("kill-session", "-t", session)  # the terminal closes: SIGHUP
    deadline = time.monotonic() + 15
    while running(pid):
        assert time.monotonic() < deadline, "drill did not end when its terminal closed"
        time.sleep(0.1)
    assert lock is not None
    assert lock.execute("SELECT COUNT(*) FROM review").fetchone() == (0,)
    lock.rollback()
    lock.close()
    started = subprocess.run(
        [sys.executable, "-m", "drill", "queue"],
        capture_output=True,
        text=True,
        env={**os.environ, "DRILL_HOME": str(drill_home)},
    )
    assert started.returncode == 0, started.stderr
    assert "saved 2 writes kept from a drill" in started.stderr
    rows = sqlite3.connect(drill_home / "drill.db").execute("SELECT button, counted FROM review ORDER BY id").fetchall()
    assert rows == [(3, 1), (3, 1)]
    assert list((drill_home / "pending-writes").glob("*.jsonl")) == []


def test_closing_the_terminal_ends_drill_even_on_a_busy_machine(drill_home: Path) -> None:
    """The kernel's hang-up sends SIGHUP and SIGCONT together; on a busy machine Textual's SIGCONT
    handler used to start writing to the closed terminal again and its exit then waited for good
    (about 2 closes in 5 left a drill behind). Each close, as the revealed answer is drawn, ends drill."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BURNERS)]
    try:
        for close in range(CLOSES):
            session = f"drill-test-close-{close}-{time.monotonic_ns()}"
            command = f"exec env DRILL_HOME={drill_home} {sys.executable} -m drill review"
            tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
            try:
                wait_for_screen(session, "Show answer", timeout=60)
                pid = int(tmux("list-panes", "-t", session, "-F", "#{pane_pid}").split()[0])
                tmux("send-keys", "-t", session, "Space")  # the answer is being drawn as the terminal closes
            finally:
                tmux_status("kill-session", "-t", session)
            deadline = time.monotonic() + 20
            while running(pid):
                assert time.monotonic() < deadline, f"drill was still running 20 s after close {close + 1}"
                time.sleep(0.1)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
