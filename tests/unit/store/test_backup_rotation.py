"""Backup rotation by kind and by the order backups were made: a clock or time zone going back
never deletes a fresh backup, and `drill backup` never evicts the daily ones."""

import shutil
from datetime import timedelta
from pathlib import Path

from helpers.reviews import grade, reviewed, study  # noqa: F401  (study is a fixture)

from drill.cli import main
from drill.store.backup import daily_backup, list_backups, make_backup


def test_a_backup_made_after_the_clock_went_back_is_the_one_kept(study, clock, tmp_path) -> None:
    made = []
    for hour in range(8):  # each made an hour "earlier" than the last
        grade(study, "m-1")
        made.append(make_backup(study.paths.database, tmp_path, 7, clock.now - timedelta(hours=hour)))
    assert made[-1].exists()
    assert [backup.path for backup in list_backups(tmp_path)] == made[1:]  # the first made went, not the last
    assert len(reviewed(made[-1])) == 8


def test_daily_backups_survive_the_clock_going_back_days(study, clock, tmp_path) -> None:
    made = [daily_backup(study.paths.database, tmp_path, 3, clock.now - timedelta(days=day)) for day in range(5)]
    assert all(path is not None for path in made)
    assert [backup.path for backup in list_backups(tmp_path)] == made[2:]
    assert daily_backup(study.paths.database, tmp_path, 3, clock.now - timedelta(days=4)) is None  # that day has one


def test_manual_backups_do_not_evict_the_daily_ones(study, clock, tmp_path) -> None:
    daily = [daily_backup(study.paths.database, tmp_path, 7, clock.now + timedelta(days=day)) for day in range(7)]
    later = clock.now + timedelta(days=7)
    manual = [make_backup(study.paths.database, tmp_path, 10, later + timedelta(minutes=n)) for n in range(12)]
    kept = [backup.path for backup in list_backups(tmp_path)]
    assert kept == daily + manual[2:]  # 7 daily and the last 10 manual
    assert [backup.kind for backup in list_backups(tmp_path)] == ["daily"] * 7 + ["manual"] * 10


def test_legacy_names_are_daily_backups_older_than_any_numbered_one(study, clock, tmp_path) -> None:
    first = make_backup(study.paths.database, tmp_path / "made", 1, clock.now)
    legacy = [
        tmp_path / name
        for name in ("drill-20261101-000000.sqlite", "drill-20261101-000000-2.sqlite", "drill-20261102-000000.sqlite")
    ]
    for path in legacy:
        shutil.copy(first, path)
    listed = list_backups(tmp_path)
    assert [backup.path for backup in listed] == legacy and {backup.kind for backup in listed} == {"daily"}
    assert daily_backup(study.paths.database, tmp_path, 7, clock.now + timedelta(days=10)) is not None
    assert daily_backup(study.paths.database, tmp_path, 7, clock.now + timedelta(days=10)) is None
    newest = daily_backup(study.paths.database, tmp_path, 2, clock.now + timedelta(days=11))
    assert [backup.path for backup in list_backups(tmp_path)][-1] == newest
    assert [backup.path.name for backup in list_backups(tmp_path)] == [
        "drill-000001-daily-20261202-150000.sqlite",
        "drill-000002-daily-20261203-150000.sqlite",
    ]


def test_restore_after_the_clock_went_back_names_an_undo_copy_that_exists(study, capsys, drill_home) -> None:
    future = study.clock() + timedelta(days=3650)  # backups from a clock that was set ten years ahead
    grade(study, "m-1")
    for day in range(7):
        daily_backup(study.paths.database, drill_home / "backups", 7, future + timedelta(days=day))
    grade(study, "c-1")
    study.close()
    assert main(["restore", "--latest"]) == 0  # now the real clock: years before every backup's name
    before = Path(capsys.readouterr().out.split("the database as it was before is in ")[1].split(",")[0])
    assert before.exists() and reviewed(before) == ["m-1", "c-1"]
    assert reviewed(drill_home / "drill.db") == ["m-1"]
    assert len(list_backups(drill_home / "backups")) == 8
