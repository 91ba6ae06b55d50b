"""The warm worker's JSON-lines protocol: its messages, and reading them from a pipe with a
timeout (both ends use it; drill.coding.runner.worker describes the exchange)."""

from __future__ import annotations

import os
import select
from typing import Literal, TypedDict

from drill.coding.sandbox.child import RunRequest


class WorkerRun(RunRequest):
    """-> one run (drill.coding.sandbox.child), numbered by the client."""

    id: int


class Cancel(TypedDict):
    """-> kill the running child."""

    op: Literal["cancel"]


class Ready(TypedDict):
    """<- imports done."""

    event: Literal["ready"]
    pid: int


class Started(TypedDict):
    """<- the run's child (it leads its own process group)."""

    event: Literal["started"]
    id: int
    pid: int


class Done(TypedDict):
    """<- the run ended, as the worker's supervisor saw it (drill.coding.runner.result.Exit)."""

    event: Literal["done"]
    id: int
    returncode: int | None
    timed_out: bool
    over_memory: bool
    cancelled: bool


Answer = Ready | Started | Done


def readable(fd: int, timeout: float | None) -> bool:
    """Whether `fd` has data (or its end) within `timeout` seconds (None: wait). poll(), unlike
    select(), takes descriptors above 1023, which a long-running app can reach."""
    if not hasattr(select, "poll"):  # Windows
        return bool(select.select([fd], [], [], timeout)[0])
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return bool(poller.poll(None if timeout is None else max(0, int(timeout * 1000))))


class Lines:
    """Lines from a file descriptor, with a timeout; None at end of file."""

    def __init__(self, fd: int) -> None:
        self.fd, self.buffer, self.eof = fd, b"", False

    def next(self, timeout: float | None) -> str | None:
        """The next line ("" when none came within `timeout` seconds; None at end of file)."""
        while b"\n" not in self.buffer:
            if self.eof:
                return None
            if not readable(self.fd, timeout):
                return ""
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.eof = True
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8")
