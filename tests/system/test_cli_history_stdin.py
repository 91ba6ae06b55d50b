"""`drill import --history` reads the review log from standard input as `-` or /dev/stdin, whether
it is a pipe or a redirected file, in a real process; a file it cannot read is one line, never a
traceback."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.paths import Paths
from drill.study import Study

HEADER = "card_id,review_time,review_rating,review_duration"


def card_id(item_id: str) -> int:
    return int.from_bytes(hashlib.sha256(item_id.encode()).digest(), "big") >> (256 - 53)


@pytest.fixture
def log(drill_home: Path) -> bytes:
    """A review log of two reviews and a forget of an item in a store opened once."""
    study = Study.open(Paths.resolve())
    try:
        card = card_id(study.reviews.queue()[0])
    finally:
        study.close()
    now = int(datetime.now(UTC).timestamp() * 1000)
    return f"{HEADER}\n{card},{now - 3000},3,100\n{card},{now - 2000},0,0\n{card},{now - 1000},4,100\n".encode()


def drill(*arguments: str, **options) -> subprocess.CompletedProcess[str]:
    """`drill ARGUMENTS` in a process of its own (the test's DRILL_HOME), its output as text."""
    command = [sys.executable, "-m", "drill", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=os.environ, **options)


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_a_piped_log_imports(log: bytes, name: str) -> None:
    done = drill("import", "--history", name, input=log.decode())
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"{name}: 3 reviews read\n")
    assert "added 2 reviews and 1 forget to 1 item" in done.stdout


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_a_file_redirected_to_standard_input_imports(log: bytes, tmp_path: Path, name: str) -> None:
    source = tmp_path / "log.csv"
    source.write_bytes(log)
    with source.open("rb") as stdin:
        done = drill("import", "--history", name, "--json", stdin=stdin)
    assert (done.returncode, done.stderr) == (0, "")
    report = json.loads(done.stdout)
    assert Path(report.pop("backup")).parent == Paths.resolve().backups
    assert report == {
        "path": name,
        "rows": 3,
        "added": 2,
        "forgets_added": 1,
        "skipped_duplicates": 0,
        "items_rebuilt": 1,
    }


def test_a_closed_standard_input_and_a_folder_are_one_line_each(log: bytes, tmp_path: Path) -> None:
    closed = drill("import", "--history", "-", stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    assert closed.returncode == 1 and closed.stderr.splitlines()[0] == "-: cannot read: standard input is closed"
    folder = drill("import", "--history", str(tmp_path))
    assert folder.returncode == 1 and "Traceback" not in folder.stderr
    assert folder.stderr.splitlines()[0] == f"{tmp_path}: cannot read: Is a directory"
