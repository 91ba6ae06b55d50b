"""Who has the SQLite database open: every drill session holds a shared lock on a file beside it
(drill.db.sessions) for as long as it runs; a restore takes that lock alone, so it never
replaces the database under an open app and no app opens while it runs.

The locks are fcntl.flock locks: they belong to one open file, go when it closes or the process
ends, and a process that never took one is not seen. Where fcntl is missing (Windows) nothing is
locked: sessions and restores go ahead as before.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import TracebackType
from typing import Self

from drill.errors import UserFacingError

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # the module's stand-in where it is missing; _take checks it

POLL_SECONDS = 0.05


class SessionLockError(UserFacingError):
    """The sessions lock is held in a way that rules out what was asked."""


class SessionLock:
    """A lock taken on the sessions file; `close()` (or leaving a `with` block) gives it up."""

    def __init__(self, descriptor: int | None) -> None:
        self._descriptor = descriptor

    def close(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing the file releases its flock
            self._descriptor = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()


def sessions_file(database: Path) -> Path:
    """The file whose lock stands for the sessions open on `database`."""
    return database.with_name(database.name + ".sessions")


def hold_session(database: Path, wait: float = 30.0) -> SessionLock:
    """Share the sessions lock for as long as a session has `database` open; while a restore
    holds it, wait up to `wait` seconds, then raise SessionLockError."""
    lock = _take(database, False, wait)
    if lock is None:
        raise SessionLockError(f"{database} is being restored from a backup; try again when that is done")
    return lock


def hold_alone(database: Path) -> SessionLock:
    """Take the sessions lock alone, at once, or raise SessionLockError while any session holds it."""
    lock = _take(database, True, 0.0)
    if lock is None:
        raise SessionLockError(f"{database} is open in another drill (the app or a command); close it and try again")
    return lock


def _take(database: Path, alone: bool, wait: float) -> SessionLock | None:
    """The lock, exclusive when `alone` else shared, tried until `wait` seconds have passed;
    None when it stayed held."""
    if fcntl is None:
        return SessionLock(None)
    descriptor = os.open(sessions_file(database), os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + wait
    try:
        while True:
            try:
                fcntl.flock(descriptor, (fcntl.LOCK_EX if alone else fcntl.LOCK_SH) | fcntl.LOCK_NB)
                return SessionLock(descriptor)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(descriptor)
                    return None
                time.sleep(POLL_SECONDS)
    except BaseException:
        os.close(descriptor)
        raise
