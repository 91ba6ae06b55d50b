"""A damaged drill.db: one line naming the file, the problem and the newest backup; never overwritten."""

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.pilot import wait_until
from textual.widgets import Static

from drill.paths import Paths
from drill.store.backup import make_backup
from drill.study import Study
from drill.study.writes import write_grade
from drill.tui.app import DrillApp


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def garbage(database: Path) -> None:
    database.write_bytes(os.urandom(8192))


def truncated(database: Path) -> None:
    data = database.read_bytes()
    database.write_bytes(data[: len(data) // 3])


def wrong_file(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
        connection.execute("INSERT INTO photos (path) VALUES ('holiday.jpg')")
    connection.close()


DAMAGE = {
    "garbage": (garbage, "file is not a database"),
    "truncated": (truncated, "malformed"),
    "wrong file": (wrong_file, "not a drill database: it holds tables drill did not make (photos)"),
}


@pytest.fixture
def home_with_history(drill_home, clock) -> Paths:
    """A home with reviews and one backup, its WAL folded into the main file."""
    paths = Paths(drill_home)
    study = Study.open(paths, clock)
    for card in study.reviews.cards(study.reviews.queue())[:10]:
        if card.kind in ("card", "pitch"):
            write_grade(study, study.reviews.grade(card, 3, 1000))
    study.close()
    with sqlite3.connect(paths.database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("PRAGMA journal_mode = DELETE")
    connection.close()
    make_backup(paths.database, paths.backups, 7, clock())
    return paths


def damage(paths: Paths, kind: str) -> str:
    for leftover in ("drill.db-wal", "drill.db-shm"):
        (paths.home / leftover).unlink(missing_ok=True)
    if kind == "wrong file":
        paths.database.unlink()
    DAMAGE[kind][0](paths.database)
    return digest(paths.database)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(DAMAGE))
def test_cli_says_one_line_and_changes_nothing(home_with_history, kind) -> None:
    paths = home_with_history
    before = digest_after = damage(paths, kind)
    [backup] = sorted(paths.backups.iterdir())
    for command in (["stats"], ["stats", "--json"], ["queue", "--json"]):
        run = subprocess.run(
            [sys.executable, "-m", "drill", *command],
            capture_output=True,
            text=True,
            env={**os.environ, "DRILL_HOME": str(paths.home)},
        )
        assert run.returncode == 2 and run.stdout == ""
        [line] = run.stderr.splitlines()
        assert line.startswith(f"drill: {paths.database} is damaged (") and DAMAGE[kind][1] in line
        assert f"the newest backup is {backup}; run `drill restore --latest`" in line
        assert "Traceback" not in run.stderr
        digest_after = digest(paths.database)
    assert digest_after == before


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["garbage", "truncated"])
def test_restore_latest_brings_the_history_back_and_keeps_the_damaged_file(home_with_history, kind) -> None:
    paths = home_with_history
    with sqlite3.connect(paths.database) as connection:
        reviews = connection.execute("SELECT COUNT(*) FROM review").fetchone()[0]
    connection.close()
    damaged_digest = damage(paths, kind)
    env = {**os.environ, "DRILL_HOME": str(paths.home)}
    restore = subprocess.run(
        [sys.executable, "-m", "drill", "restore", "--latest"], capture_output=True, text=True, env=env
    )
    assert restore.returncode == 0, restore.stderr
    [kept] = paths.backups.glob("damaged-*-drill.db")
    assert f"the damaged database was moved, unchanged, to {kept}" in restore.stdout
    assert digest(kept) == damaged_digest
    stats = subprocess.run([sys.executable, "-m", "drill", "stats", "--json"], capture_output=True, text=True, env=env)
    assert stats.returncode == 0 and json.loads(stats.stdout)["reviews_total"] == reviews > 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["garbage", "truncated"])
async def test_tui_shows_the_same_on_home(home_with_history, clock, kind) -> None:
    paths = home_with_history
    before = damage(paths, kind)
    app = DrillApp(paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        headline = app.home_screen.query_one("#headline", Static)
        await wait_until(pilot, lambda: "damaged" in str(headline.render()))
        text = str(headline.render())
        assert "drill restore --latest" in text and DAMAGE[kind][1] in text
        assert app.study is None
        await pilot.press("r")  # nothing to review from a damaged store, and no crash
        assert app.screen is app.home_screen
    assert digest(paths.database) == before
