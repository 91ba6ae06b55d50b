"""`drill restore` keeps the database as it was in a checked copy before touching it, and is
refused, with nothing changed, when that copy is not sound or a drill session has it open."""

import sqlite3
import subprocess
import sys
from pathlib import Path

from helpers.reviews import grade, reviewed, study  # noqa: F401  (study is a fixture)

from drill.cli import main
from drill.store import backup as backup_module
from drill.store.backup import check_backup, list_backups, make_backup
from drill.store.session_lock import hold_session


def two_states(study, clock) -> Path:
    """A backup holding m-1, then c-1 graded: the live database holds both."""
    grade(study, "m-1")
    earlier = make_backup(study.paths.database, study.paths.backups, 10, clock.now)
    grade(study, "c-1")
    study.close()
    return earlier


def assert_refused(capsys, earlier: Path, words: str) -> None:
    """The restore exits 1 with one line holding `words`, and the database and backups are as they were."""
    database, backups = earlier.parent.parent / "drill.db", earlier.parent
    assert main(["restore", str(earlier)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("drill: ") and words in err and err.count("\n") == 1, err
    assert reviewed(database) == ["m-1", "c-1"]
    assert [backup.path for backup in list_backups(backups)] == [earlier]


def test_restore_names_a_checked_undo_copy(study, clock, capsys) -> None:
    earlier = two_states(study, clock)
    assert main(["restore", str(earlier)]) == 0
    out = capsys.readouterr().out
    before = list_backups(earlier.parent)[-1].path
    assert before.name.startswith("drill-000002-pre-restore-")
    assert f"the database as it was before is in {before}, checked (drill restore {before} undoes this)" in out
    check_backup(before)
    assert reviewed(before) == ["m-1", "c-1"] and reviewed(study.paths.database) == ["m-1"]


def test_restore_is_refused_when_the_undo_copy_cannot_be_written(study, clock, capsys, monkeypatch) -> None:
    earlier = two_states(study, clock)

    def full_disk(database: Path, target: Path) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(backup_module, "backup_to", full_disk)
    assert_refused(capsys, earlier, "before restoring (No space left on device); nothing was restored")


def test_restore_is_refused_when_the_undo_copy_is_garbage(study, clock, capsys, monkeypatch) -> None:
    earlier = two_states(study, clock)
    monkeypatch.setattr(backup_module, "backup_to", lambda database, target: target.write_bytes(b"junk" * 2000))
    assert_refused(capsys, earlier, "made before restoring")  # and the bad copy is gone


def test_restore_is_refused_when_the_undo_copy_lost_reviews(study, clock, capsys, monkeypatch) -> None:
    earlier = two_states(study, clock)
    real = backup_module.backup_to

    def lossy(database: Path, target: Path) -> None:
        real(database, target)
        with sqlite3.connect(target) as copy:
            copy.execute("DELETE FROM review WHERE item_id = 'c-1'")
        copy.close()

    monkeypatch.setattr(backup_module, "backup_to", lossy)
    assert_refused(capsys, earlier, "its tables or reviews differ")


def test_restore_is_refused_while_a_session_has_the_database_open(study, clock, capsys) -> None:
    earlier = two_states(study, clock)
    with hold_session(study.paths.database):  # its own open file, as another process's would be
        assert_refused(capsys, earlier, "is open in another drill")
    assert main(["restore", str(earlier)]) == 0
    assert reviewed(study.paths.database) == ["m-1"]


def test_restore_is_refused_while_another_process_holds_a_session(study, clock, capsys) -> None:
    earlier = two_states(study, clock)
    script = (
        "import sys; from pathlib import Path; from drill.store.session_lock import hold_session; "
        f"lock = hold_session(Path({str(study.paths.database)!r})); print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        assert_refused(capsys, earlier, "is open in another drill")
    finally:
        holder.communicate("")
    assert main(["restore", str(earlier)]) == 0
    assert reviewed(study.paths.database) == ["m-1"]


def test_only_the_last_five_pre_restore_copies_are_kept(study, clock, capsys) -> None:
    earlier = two_states(study, clock)
    for _ in range(7):
        assert main(["restore", str(earlier)]) == 0
    kinds = [backup.kind for backup in list_backups(earlier.parent)]
    assert kinds == ["manual"] + ["pre-restore"] * 5
    assert list_backups(earlier.parent)[-1].number == 8
