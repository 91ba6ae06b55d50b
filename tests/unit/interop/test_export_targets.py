"""Where an export writes: through a symlink (the link stays), into a pipe as a stream (never
replaced), to standard output for `-`, never over a folder; a failed write leaves the old file."""

from __future__ import annotations

import io
import os
import stat
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from drill.cli import main
from drill.interop.atomic import STDOUT, is_stdout, writing

HEADER = "card_id,review_time,review_rating,review_duration,cram\n"


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "history.csv"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "history.csv"
    link.symlink_to(target)
    assert main(["export", "--history", str(link)]) == 0
    assert link.is_symlink() and link.readlink() == target
    assert target.read_text() == HEADER
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's permissions kept
    assert sorted(path.name for path in tmp_path.rglob("*") if path.name.endswith(".tmp")) == []


def test_a_dangling_symlink_gets_its_file(tmp_path: Path) -> None:
    link = tmp_path / "drill.apkg"
    link.symlink_to(tmp_path / "made.apkg")
    assert main(["export", "--anki", str(link)]) == 0
    assert link.is_symlink() and zipfile.is_zipfile(tmp_path / "made.apkg")


@pytest.mark.parametrize("through_a_link", [False, True])
def test_a_pipe_is_written_as_a_stream_and_stays_a_pipe(tmp_path: Path, through_a_link: bool) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    target = fifo
    if through_a_link:  # as /dev/stdout leads to a pipe
        target = folder / "stdout"
        target.symlink_to(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        assert main(["export", "--history", str(target)]) == 0
    finally:
        reader.join(timeout=30)
    assert received == [HEADER.encode()]
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and target.is_symlink() == through_a_link
    assert sorted(path.name for path in folder.iterdir()) == sorted({"fifo", target.name})


def test_a_folder_is_refused_with_a_clear_message(capsys, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    (folder / "inside").mkdir(parents=True)
    for flag in ("--history", "--anki"):
        assert main(["export", flag, str(folder)]) == 1
        assert capsys.readouterr().err == f"drill: cannot write {folder}: it is a folder; name a file to write\n"
    assert [path.name for path in folder.iterdir()] == ["inside"]


def test_dash_writes_the_history_to_stdout_and_the_report_to_stderr(capsys) -> None:
    assert main(["export", "--history", "-"]) == 0
    captured = capsys.readouterr()
    assert captured.out == HEADER
    assert captured.err == "standard output: 0 reviews\n"
    assert not Path("-").exists()


def test_dash_writes_the_anki_package_to_stdout(capsysbinary, tmp_path: Path) -> None:
    assert main(["export", "--anki", "-", "--with-schedule"]) == 0
    captured = capsysbinary.readouterr()
    with zipfile.ZipFile(io.BytesIO(captured.out)) as archive:
        assert sorted(archive.namelist()) == ["collection.anki2", "media"]
    assert captured.err.decode().startswith("standard output: ")
    assert b"notes in 5 decks" in captured.err and b"with schedules: 0 reviewed cards" in captured.err


def test_stdout_is_refused_twice_and_for_a_package_to_a_terminal(capsys, monkeypatch) -> None:
    assert main(["export", "--history", "-", "--anki", "-"]) == 2
    assert "only one of --anki and --history can write to standard output" in capsys.readouterr().err
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["export", "--anki", "-"]) == 2
    assert "an Anki package is binary" in capsys.readouterr().err


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "history.csv"
    target.write_text("old\n")
    with pytest.raises(RuntimeError), writing(target) as out:
        out.write(b"half")
        raise RuntimeError("interrupted")
    assert target.read_text() == "old\n" and [path.name for path in tmp_path.iterdir()] == ["history.csv"]


def test_only_dash_and_stdouts_own_file_are_stdout(tmp_path: Path) -> None:
    assert is_stdout(STDOUT) and not is_stdout(tmp_path / "x.csv") and not is_stdout(tmp_path)
