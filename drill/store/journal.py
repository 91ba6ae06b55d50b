"""Writes handed over but not yet committed, kept in a file next to the database until they are.

Each drill process appends to its own file in the `pending-writes` folder and holds an exclusive
lock on it while it runs: one JSON line per write before the write is tried, one line when it has
committed (or failed for good). A process that ends with writes it could not make leaves its file
behind, fsynced; the next drill to start claims every file no running drill holds and replays the
writes still open in it, in order. Replaying is safe twice over: every write knows when it is
already stored (the same item at the same moment).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; one drill at a time is assumed there
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".jsonl"


@dataclass(frozen=True)
class Entry:
    """One write as journalled: its key, its operation's name and its arguments (JSON)."""

    key: str
    op: str
    args: Any


def _lock(handle: IO[str]) -> bool:
    """Take the file's exclusive lock without waiting; False when another process holds it."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _write(handle: IO[str], record: dict[str, Any]) -> None:
    """Append one JSON line and flush it to the page cache (it outlives the process, killed or not)."""
    handle.seek(0, os.SEEK_END)
    handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    handle.flush()


def _read(handle: IO[str]) -> list[Entry]:
    """The entries of a journal file not yet settled, in order (a torn last line is skipped)."""
    entries: dict[str, Entry] = {}
    handle.seek(0)
    for line in handle:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(record, dict):
            continue
        if "settled" in record:
            entries.pop(str(record["settled"]), None)
        elif {"key", "op", "args"} <= record.keys():
            entries[str(record["key"])] = Entry(str(record["key"]), str(record["op"]), record["args"])
    return list(entries.values())


class Journal:
    """This process's journal file (made at its first write): add a write before trying it,
    settle it once it is done."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / f"{os.getpid()}-{uuid.uuid4().hex[:12]}{SUFFIX}"
        self._handle: IO[str] | None = None
        self._open: set[str] = set()

    def _append(self, record: dict[str, Any]) -> None:
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = self.path.open("a+", encoding="utf-8")
            _lock(self._handle)
        _write(self._handle, record)

    def add(self, op: str, args: Any) -> str:
        """Journal a write about to be tried; returns its key."""
        key = uuid.uuid4().hex
        self._append({"key": key, "op": op, "args": args})
        self._open.add(key)
        return key

    def settle(self, key: str) -> None:
        """The write `key` committed, or failed in a way trying again cannot mend."""
        self._append({"settled": key})
        self._open.discard(key)

    @property
    def open_writes(self) -> int:
        """Writes journalled and not settled."""
        return len(self._open)

    def sync(self) -> None:
        """Make the journal durable (fsync), so open writes survive even a power cut."""
        if self._handle is not None:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Close the file: removed when every write settled, else kept (fsynced) for the next start."""
        if self._handle is None:
            return
        if self._open:
            self.sync()
        else:
            self.path.unlink(missing_ok=True)
        self._handle.close()


class Claimed:
    """A journal left by a drill that is no longer running: its open writes, and a way to settle them."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle = handle
        self.entries = _read(handle)
        self._open = {entry.key for entry in self.entries}
        if path.stat().st_size and not path.read_bytes().endswith(b"\n"):
            self._handle.write("\n")  # end the torn line its process died in

    def settle(self, key: str) -> None:
        _write(self._handle, {"settled": key})
        self._open.discard(key)

    @property
    def settled(self) -> bool:
        """Whether every write it held has been settled."""
        return not self._open


def _age(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


@contextmanager
def claimed(folder: Path) -> Iterator[list[Claimed]]:
    """Every journal in `folder` no running drill holds, locked for the caller; on a clean exit
    from the block, each whose writes were all settled is deleted."""
    handles: list[tuple[Path, IO[str]]] = []
    try:
        for path in sorted(folder.glob(f"*{SUFFIX}"), key=_age):
            try:
                handle = path.open("r+", encoding="utf-8")
            except FileNotFoundError:  # another drill replayed and removed it just now
                continue
            if _lock(handle):
                handles.append((path, handle))
            else:
                handle.close()
        journals = [Claimed(path, handle) for path, handle in handles]
        yield journals
        for journal in journals:
            if journal.settled:
                journal.path.unlink(missing_ok=True)
    finally:
        for _, held in handles:
            with suppress(OSError):
                held.close()
