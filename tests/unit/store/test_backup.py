"""Backups: consistent online copies, keep-N pruning, one a day, restore that can be undone.
Rotation by kind and the clock: test_backup_rotation.py; the restore's undo copy and sessions:
test_restore_undo.py."""

import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from helpers.pilot import wait_ready, wait_until
from helpers.reviews import grade, reviewed, rows, study  # noqa: F401  (study is a fixture)

from drill.cli import main
from drill.config import Config, ConfigError
from drill.store.backup import BackupError, backup_to, daily_backup, list_backups, make_backup, restore
from drill.store.engine import open_engine
from drill.store.migrations import SCHEMA_VERSION
from drill.store.session_lock import SessionLockError
from drill.tui.app import DrillApp

FIXTURES = Path(__file__).parents[2] / "fixtures"


def test_a_backup_holds_every_row_and_is_a_self_contained_file(study, tmp_path) -> None:
    grade(study, "m-1")
    grade(study, "c-1", 1)
    target = tmp_path / "out" / "copy.sqlite"
    target.parent.mkdir()
    backup_to(study.paths.database, target)
    for table in ("item", "review"):
        assert rows(target, f"SELECT * FROM {table} ORDER BY 1") == rows(
            study.paths.database, f"SELECT * FROM {table} ORDER BY 1"
        )
    assert reviewed(target) == ["m-1", "c-1"]
    assert rows(target, "PRAGMA integrity_check") == [("ok",)]
    assert rows(target, "PRAGMA journal_mode") == [("delete",)]
    assert [path.name for path in target.parent.iterdir()] == ["copy.sqlite"]  # no temp file, no -wal


def test_a_backup_does_not_wait_for_an_open_write_transaction(study, tmp_path) -> None:
    grade(study, "m-1")
    writer = sqlite3.connect(study.paths.database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM review")
    backup_to(study.paths.database, tmp_path / "copy.sqlite")
    writer.execute("COMMIT")
    writer.close()
    assert reviewed(tmp_path / "copy.sqlite") == ["m-1"]  # the committed state, not the open write
    assert reviewed(study.paths.database) == []


def test_backups_taken_while_a_thread_writes_are_consistent_snapshots(study, tmp_path) -> None:
    database = study.paths.database
    setup = sqlite3.connect(database)
    setup.execute("CREATE TABLE pair (n INTEGER)")
    setup.commit()
    setup.close()
    started, stop = threading.Event(), threading.Event()

    def write_pairs() -> None:  # each transaction adds n twice: a torn copy would hold n once
        connection = sqlite3.connect(database, isolation_level=None, timeout=15)
        n = 0
        while not stop.is_set():
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany("INSERT INTO pair VALUES (?)", [(n,), (n,)])
            connection.execute("COMMIT")
            n += 1
            started.set()
        connection.close()

    thread = threading.Thread(target=write_pairs)
    thread.start()
    try:
        started.wait()
        copies = []
        for index in range(5):
            copies.append(tmp_path / f"copy-{index}.sqlite")
            backup_to(database, copies[-1])
    finally:
        stop.set()
        thread.join()
    counts = []
    for copy in copies:
        assert rows(copy, "PRAGMA integrity_check") == [("ok",)]
        assert rows(copy, "SELECT n FROM pair GROUP BY n HAVING COUNT(*) != 2") == []
        counts.append(rows(copy, "SELECT COUNT(*) FROM pair")[0][0])
    assert counts[0] > 0 and counts == sorted(counts)


def test_keep_prunes_only_the_oldest_backups_and_nothing_else(study, clock, tmp_path) -> None:
    backups = tmp_path / "backups"
    backups.mkdir()
    others = [
        "notes.txt",
        "drill-latest.sqlite",
        "drill-20200101-000000.sqlite.bak",
        "drill-2020-01-01.sqlite",
        "drill-000009-weekly-20200101-000000.sqlite",
        "drill-000009-manual-20201399-000000.sqlite",
    ]
    for name in others:
        (backups / name).write_text("mine")
    made = []
    for hour in range(5):
        made.append(make_backup(study.paths.database, backups, 3, clock.now + timedelta(hours=hour)))
    assert [backup.path for backup in list_backups(backups)] == made[2:]
    assert sorted(path.name for path in backups.iterdir()) == sorted(others + [path.name for path in made[2:]])
    assert all((backups / name).read_text() == "mine" for name in others)
    assert made[0].name == "drill-000001-manual-20261122-150000.sqlite"  # local time (TZ=UTC in tests)


def test_backups_within_one_second_get_distinct_names_in_order(study, clock, tmp_path) -> None:
    first = make_backup(study.paths.database, tmp_path, 5, clock.now)
    grade(study, "m-1")
    second = make_backup(study.paths.database, tmp_path, 5, clock.now)
    assert second.name == "drill-000002-manual-20261122-150000.sqlite"
    assert [backup.path for backup in list_backups(tmp_path)] == [first, second]
    assert reviewed(first) == [] and reviewed(second) == ["m-1"]
    third = make_backup(study.paths.database, tmp_path, 2, clock.now)  # prunes the first
    fourth = make_backup(study.paths.database, tmp_path, 2, clock.now)
    assert fourth.name == "drill-000004-manual-20261122-150000.sqlite"
    assert [backup.path for backup in list_backups(tmp_path)] == [third, fourth]


def test_the_daily_backup_is_made_once_per_local_day(study, clock, tmp_path, monkeypatch) -> None:
    database, backups = study.paths.database, tmp_path / "backups"
    first = daily_backup(database, backups, 7, clock.now)
    assert first is not None and first.name == "drill-000001-daily-20261122-150000.sqlite"
    assert daily_backup(database, backups, 7, clock.now + timedelta(hours=8)) is None  # 23:00, same day
    next_day = daily_backup(database, backups, 7, clock.now + timedelta(hours=9))
    assert next_day is not None and next_day.name == "drill-000002-daily-20261123-000000.sqlite"
    monkeypatch.setenv("DRILL_DB_URL", "postgresql://localhost/drill")
    assert daily_backup(database, backups, 7, clock.now + timedelta(days=2)) is None
    assert [backup.path for backup in list_backups(backups)] == [first, next_day]


def test_restore_brings_back_the_earlier_state_and_can_be_undone(study, clock, tmp_path) -> None:
    database, backups = study.paths.database, tmp_path / "backups"
    grade(study, "m-1")
    earlier = make_backup(database, backups, 7, clock.now)
    grade(study, "c-1")
    study.close()
    before = restore(database, earlier, backups, clock.now + timedelta(minutes=1))
    assert reviewed(database) == ["m-1"]
    assert before is not None and before.name == "drill-000002-pre-restore-20261122-150100.sqlite"
    assert reviewed(before) == ["m-1", "c-1"]
    assert rows(database, "PRAGMA journal_mode") == [("wal",)]
    assert rows(database, "PRAGMA integrity_check") == [("ok",)]
    restore(database, before, backups, clock.now + timedelta(minutes=2))
    assert reviewed(database) == ["m-1", "c-1"]


def test_restore_is_refused_while_a_study_is_open_and_changes_nothing(study, clock, tmp_path) -> None:
    backups = tmp_path / "backups"
    earlier = make_backup(study.paths.database, backups, 7, clock.now)
    grade(study, "m-1")
    result = subprocess.run([sys.executable, "-m", "drill", "restore", str(earlier)], capture_output=True, text=True)
    assert result.returncode != 0 and "open in another drill" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    with pytest.raises(SessionLockError):
        restore(study.paths.database, earlier, backups, clock.now)
    assert reviewed(study.paths.database) == ["m-1"]
    study.close()
    restore(study.paths.database, earlier, backups, clock.now)  # once the app is closed it goes ahead
    assert reviewed(study.paths.database) == []


def test_an_older_schema_is_restored_and_then_migrated(study, clock, tmp_path) -> None:
    old = tmp_path / "schema_v1.sqlite"
    shutil.copy(FIXTURES / "schema_v1.sqlite", old)
    fixture_reviews = reviewed(old)
    study.close()
    restore(study.paths.database, old, tmp_path / "backups", clock.now)
    assert rows(study.paths.database, "PRAGMA user_version") == [(1,)]
    open_engine(study.paths.database, tmp_path / "backups").dispose()
    assert rows(study.paths.database, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert reviewed(study.paths.database) == fixture_reviews and len(fixture_reviews) == 3
    kept = [backup for backup in list_backups(tmp_path / "backups") if backup.kind == "pre-migration"]
    assert len(kept) == 1  # the database as it was before the upgrade
    assert rows(kept[0].path, "PRAGMA user_version") == [(1,)] and reviewed(kept[0].path) == fixture_reviews
    open_engine(study.paths.database, tmp_path / "backups").dispose()  # up to date: no second copy
    assert len([backup for backup in list_backups(tmp_path / "backups") if backup.kind == "pre-migration"]) == 1


def broken_files(good_backup: Path, folder: Path) -> dict[str, tuple[Path, str]]:
    """Files restore must refuse, each with the words its message must hold."""
    garbage = folder / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 200)
    corrupt = folder / "corrupt.sqlite"
    shutil.copy(good_backup, corrupt)
    with corrupt.open("r+b") as handle:  # overwrite pages after the first: the schema survives, the b-trees do not
        handle.seek(4096 * 2)
        handle.write(b"\xa5" * 4096 * 6)
    inconsistent = folder / "inconsistent.sqlite"
    shutil.copy(good_backup, inconsistent)
    connection = sqlite3.connect(inconsistent)
    connection.execute("PRAGMA writable_schema = ON")  # swap two indexes' pages: each now disagrees with the table
    roots = dict(
        connection.execute("SELECT name, rootpage FROM sqlite_master WHERE name IN ('ix_item_due', 'ix_item_new')")
    )
    connection.executemany(
        "UPDATE sqlite_master SET rootpage = ? WHERE name = ?",
        [(roots["ix_item_new"], "ix_item_due"), (roots["ix_item_due"], "ix_item_new")],
    )
    connection.commit()
    connection.close()
    foreign = folder / "foreign.sqlite"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.commit()
    connection.close()
    newer = folder / "newer.sqlite"
    shutil.copy(good_backup, newer)
    connection = sqlite3.connect(newer)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.commit()
    connection.close()
    return {
        "garbage": (garbage, "not a readable SQLite database"),
        "corrupt": (corrupt, "SQLite"),
        "inconsistent": (inconsistent, "fails SQLite's integrity check: row 1 missing from index"),
        "foreign": (foreign, "not a drill database"),
        "newer": (newer, "newer drill"),
        "missing": (folder / "missing.sqlite", "no such backup file"),
    }


def test_restore_refuses_broken_or_foreign_files_and_changes_nothing(study, clock, tmp_path) -> None:
    backups = tmp_path / "backups"
    grade(study, "m-1")  # gives the item indexes different content
    good = make_backup(study.paths.database, backups, 7, clock.now)
    grade(study, "c-1")
    study.close()  # restore waits for the app to close
    for name, (path, words) in broken_files(good, tmp_path).items():
        with pytest.raises(BackupError) as refused:
            restore(study.paths.database, path, backups, clock.now + timedelta(minutes=1))
        assert str(refused.value).startswith(f"{path}: ") and words in str(refused.value), name
        assert reviewed(study.paths.database) == ["m-1", "c-1"], name
        assert [backup.path for backup in list_backups(backups)] == [good], name


def test_backups_keep_must_be_positive(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("backups_keep = 0\n")
    with pytest.raises(ConfigError, match="backups_keep must be a positive integer"):
        Config.load(config)
    config.write_text("backups_keep = 2\n")
    assert Config.load(config).backups_keep == 2


def test_cli_backup_list_and_restore(study, capsys, drill_home) -> None:
    (drill_home / "config.toml").write_text("backups_keep_manual = 2\n")
    grade(study, "m-1")
    assert main(["backup"]) == 0
    first = Path(capsys.readouterr().out.strip())
    assert first.parent == drill_home / "backups" and reviewed(first) == ["m-1"]
    grade(study, "c-1")
    assert main(["backup"]) == 0 and main(["backup"]) == 0
    newest = [Path(line) for line in capsys.readouterr().out.split()]
    assert [backup.path for backup in list_backups(drill_home / "backups")] == newest  # keep_manual = 2
    assert main(["backup", "--list"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listing] == [path.name for path in newest]
    assert all("KiB" in line for line in listing)
    grade(study, "i-1")
    study.close()  # restore waits for the app to close
    assert main(["restore", "--latest"]) == 0
    out = capsys.readouterr().out
    assert f"restored {drill_home / 'drill.db'} from {newest[-1]}" in out
    assert reviewed(drill_home / "drill.db") == ["m-1", "c-1"]
    before = list_backups(drill_home / "backups")[-1].path
    assert f"the database as it was before is in {before}, checked" in out
    assert before.name.startswith("drill-000004-pre-restore-") and reviewed(before) == ["m-1", "c-1", "i-1"]
    assert main(["restore", before.name]) == 0  # a name from --list is found in the backups folder
    assert reviewed(drill_home / "drill.db") == ["m-1", "c-1", "i-1"]


def test_cli_refuses_a_bad_file_with_one_line(study, capsys, tmp_path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello")
    study.close()
    assert main(["restore", str(junk)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"drill: {junk}: not a readable SQLite database") and err.count("\n") == 1


def test_cli_with_a_server_database_points_to_the_servers_tools(capsys, monkeypatch, drill_home) -> None:
    monkeypatch.setenv("DRILL_DB_URL", "postgresql://localhost/drill")
    for argv in (["backup"], ["backup", "--list"], ["restore", "--latest"]):
        assert main(argv) == 1
        assert capsys.readouterr().err == (
            "drill: backups cover the embedded SQLite database; with DRILL_DB_URL use your server's tools (pg_dump)\n"
        )
    assert not (drill_home / "backups").exists()


async def test_starting_the_app_makes_the_daily_backup(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    backups = small_paths.backups
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await wait_until(pilot, lambda: bool(list_backups(backups)))
        [backup] = list_backups(backups)
        assert backup.path.name == "drill-000001-daily-20261122-150000.sqlite"
        assert rows(backup.path, "SELECT COUNT(*) FROM item") == [(6,)]


async def test_a_failed_daily_backup_is_a_notification(small_paths, clock, monkeypatch) -> None:
    def full_disk(database, target) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr("drill.store.backup.backup_to", full_disk)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await wait_until(pilot, lambda: any("backup failed" in str(n.message) for n in app._notifications))
        assert [str(n.message) for n in app._notifications] == ["backup failed: No space left on device"]
        assert app.is_running and list_backups(small_paths.backups) == []
