"""A reader that closes early (`drill list | head -1`) ends the command quietly."""

import os
import subprocess
import sys

import pytest

from drill.coding.drills import drill_folders
from drill.paths import content_root


@pytest.mark.slow
@pytest.mark.parametrize("command", [["list"], ["list", "--json"], ["kernel", "list"], ["problems"], ["queue"]])
def test_a_closed_pipe_is_not_a_traceback(drill_home, command) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "drill", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "DRILL_HOME": str(drill_home)},
    )
    child.stdout.close()  # before the child has written anything: its first write meets a closed pipe
    stderr = child.stderr.read().decode()
    assert child.wait(timeout=60) == 0
    assert stderr == ""


def test_the_same_commands_still_print_in_full(drill_home) -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "drill", "kernel", "list"],
        capture_output=True,
        text=True,
        env={**os.environ, "DRILL_HOME": str(drill_home)},
        check=True,
    )
    assert len(shown.stdout.splitlines()) == len(drill_folders(content_root() / "kernels")) and shown.stderr == ""
