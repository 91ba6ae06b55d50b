"""`drill export` to its own standard output, as a process: `-`, and a path to stdout (a link in
tmp to /proc/self/fd/1, as /dev/stdout is) whether stdout is a file or a pipe. The data goes
down stdout, the report to stderr, and the link is never replaced (run as root, exporting to
/dev/stdout once replaced the system's /dev/stdout with a regular file)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

HEADER = b"card_id,review_time,review_rating,review_duration,cram\n"
SELF_STDOUT = Path("/proc/self/fd/1")


def drill(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "drill", *args], env=os.environ, timeout=120, **kwargs)


@pytest.mark.skipif(not SELF_STDOUT.parent.is_dir(), reason="no /proc/self/fd here")
def test_a_link_to_stdout_is_written_as_stdout_and_stays_a_link(tmp_path: Path) -> None:
    link = tmp_path / "stdout"
    link.symlink_to(SELF_STDOUT)
    redirected = tmp_path / "out.csv"
    with redirected.open("wb") as out:  # stdout a regular file: the case that replaced /dev/stdout
        result = drill("export", "--history", str(link), stdout=out, stderr=subprocess.PIPE)
    assert result.returncode == 0, result.stderr
    assert redirected.read_bytes() == HEADER
    assert result.stderr == f"{link}: 0 reviews\n".encode()
    assert link.is_symlink() and link.readlink() == SELF_STDOUT
    piped = drill("export", "--history", str(link), capture_output=True)  # stdout a pipe
    assert (piped.returncode, piped.stdout) == (0, HEADER)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["home", "out.csv", "stdout"]


def test_dash_pipes_the_anki_package(tmp_path: Path) -> None:
    result = drill("export", "--anki", "-", capture_output=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    with zipfile.ZipFile(io.BytesIO(result.stdout)) as archive:
        assert "collection.anki2" in archive.namelist()
    assert result.stderr.startswith(b"standard output: ") and b"Traceback" not in result.stderr
    assert not (tmp_path / "-").exists()  # no file named "-"
