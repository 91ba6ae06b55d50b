"""tmux for the real-terminal tests: each test process talks to a tmux server of its own (`-L`),
so tests running at once never share, end or wait on each other's server, and a tmux call that
hangs fails the test instead of blocking the run."""

from __future__ import annotations

import os
import subprocess

SERVER = f"drill-tests-{os.getpid()}"
CALL_TIMEOUT_S = 30


def tmux_command(*args: str) -> list[str]:
    return ["tmux", "-L", SERVER, *args]


def tmux(*args: str) -> str:
    """Run a tmux command on this process's server; its output (raises if it fails)."""
    return subprocess.run(
        tmux_command(*args), capture_output=True, text=True, check=True, timeout=CALL_TIMEOUT_S
    ).stdout


def tmux_status(*args: str) -> int:
    """Run a tmux command whose failure is an answer (has-session, kill-session); its exit status."""
    return subprocess.run(tmux_command(*args), capture_output=True, timeout=CALL_TIMEOUT_S).returncode
