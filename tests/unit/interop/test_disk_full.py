"""A full disk during `drill import --history`, `drill import` and `drill export`: one line that
says what could not be written, exit 1, never a traceback.

The store's disk is made full with SQLite's own limit on the file (PRAGMA max_page_count), so the
error is SQLite's real SQLITE_FULL; a file's, with OSError(ENOSPC) or /dev/full.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.cli import main
from drill.paths import Paths
from drill.store import engine
from drill.study import Study

HEADER = "card_id,review_time,review_rating,review_duration"
NOW_MS = int(datetime.now(UTC).timestamp() * 1000)


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


def item_ids() -> list[str]:
    study = Study.open(Paths.resolve())
    try:
        return study.reviews.queue()
    finally:
        study.close()


@pytest.fixture
def full_store(monkeypatch: pytest.MonkeyPatch, drill_home: Path) -> list[str]:
    """A synced store whose file cannot grow from now on (its disk is full); the ids of its queue."""
    ids = item_ids()
    configure = engine._configure

    def full(connection) -> None:
        configure(connection)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(engine, "_configure", full)
    return ids


def one_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    return captured.err.rstrip("\n")


def full_database_line(drill_home: Path) -> str:
    database = drill_home / "drill.db"
    return f"drill: the disk is full: cannot write the database {database}; free some space and run it again"


def test_history_import_on_a_full_disk(capsys, tmp_path: Path, drill_home: Path, full_store: list[str]) -> None:
    source = tmp_path / "history.csv"
    source.write_text(
        HEADER
        + "\n"
        + "".join(f"{card_id(full_store[n % len(full_store)])},{NOW_MS - 1000 * n},3,1000\n" for n in range(20_000))
    )
    assert one_line(capsys, ["import", "--history", str(source)]) == full_database_line(drill_home)


def test_deck_import_on_a_full_disk(capsys, tmp_path: Path, drill_home: Path, full_store: list[str]) -> None:
    source = tmp_path / "many.md"
    source.write_text("".join(f"Q: Question {n} about the KV cache?\nA: Answer {n}.\n\n" for n in range(400)))
    assert one_line(capsys, ["import", str(source), "--block", "memory"]) == full_database_line(drill_home)


def test_export_on_a_full_disk(capsys, tmp_path: Path, drill_home: Path, full_store: list[str]) -> None:
    # A new user deck, so opening the store has to write (sync) before anything is exported.
    deck = Paths.resolve().user_decks / "mine.toml"
    deck.write_text(
        "".join(
            f'[[item]]\nid = "mine-{n}"\nkind = "card"\nblock = "memory"\ntopic = "T"\nprompt = "P{n}?"\n'
            f'answer = "A{n}."\nsource = "me"\n\n'
            for n in range(400)
        )
    )
    assert one_line(capsys, ["export", "--history", str(tmp_path / "h.csv")]) == full_database_line(drill_home)


def test_a_deck_that_cannot_be_written_is_not_imported(capsys, monkeypatch, tmp_path: Path, drill_home: Path) -> None:
    item_ids()
    source = tmp_path / "notes.md"
    source.write_text("Q: Why?\nA: Because.\n")
    user_decks = Paths.resolve().user_decks
    write_text = Path.write_text

    def disk_full(path: Path, *args, **kwargs):
        if user_decks in path.parents:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return write_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", disk_full)
    assert main(["import", str(source), "--block", "memory"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{user_decks / 'imported-notes.toml'}: cannot write: No space left on device",
        f"drill: {source} was not imported (1 problem); nothing was changed",
    ]
    assert not (user_decks / "imported-notes.toml").exists()
    assert source.read_text() == "Q: Why?\nA: Because.\n"  # no id written into it either


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_export_to_dev_full_is_one_line_and_leaves_the_device(capsys) -> None:
    item_ids()
    assert (
        one_line(capsys, ["export", "--history", "/dev/full"])
        == "drill: cannot write /dev/full: No space left on device"
    )
    assert (
        one_line(capsys, ["export", "--anki", "/dev/full"]) == "drill: cannot write /dev/full: No space left on device"
    )
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # written in place, never replaced by a file


def test_any_command_stopped_by_a_full_disk_says_which_file(capsys, monkeypatch, tmp_path: Path) -> None:
    def no_space(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "somewhere.db-wal"))

    monkeypatch.setattr(Study, "open", no_space)
    assert one_line(capsys, ["import", "--history", str(tmp_path / "h.csv")]) == (
        f"drill: the disk is full: cannot write {tmp_path / 'somewhere.db-wal'}; free some space and run it again"
    )
