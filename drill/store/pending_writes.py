"""The writes drill journals (drill.store.journal): each one's name and argument types.

A write is journalled as its name and its arguments in JSON (pydantic turns the typed arguments
into JSON and back), so the next start can make it if this process could not. Every write named
here is safe to make twice: the store knows when it is already stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from drill.coding.attempt import CodingAttempt
from drill.estimate.attempt import AttemptRow
from drill.schedule.records import Grade
from drill.store.journal import claimed
from drill.words import counted

REFUSED = "refused.log"  # journalled writes that could not be made, kept for the user to read

ARGUMENTS: dict[str, TypeAdapter[tuple[Any, ...]]] = {
    "grade": TypeAdapter(tuple[Grade]),
    "estimate": TypeAdapter(tuple[Grade, AttemptRow]),
    "coding": TypeAdapter(tuple[CodingAttempt, Grade | None]),
    "undo": TypeAdapter(tuple[Grade]),
    "suspend": TypeAdapter(tuple[str, bool]),
    "forget": TypeAdapter(tuple[str, datetime]),
    "round_answer": TypeAdapter(tuple[int, AttemptRow]),
    "round_end": TypeAdapter(tuple[int, float, bool, datetime]),
}


def as_json(op: str, arguments: tuple[Any, ...]) -> Any:
    """The write's arguments as the journal keeps them."""
    return ARGUMENTS[op].dump_python(arguments, mode="json")


def from_json(op: str, stored: Any) -> tuple[Any, ...]:
    """A journalled write's arguments typed again; ValueError when they cannot be (an unknown
    operation or arguments of the wrong shape)."""
    if op not in ARGUMENTS:
        raise ValueError(f"unknown write {op!r}")
    return ARGUMENTS[op].validate_python(stored)


@dataclass(frozen=True)
class Replayed:
    """What replaying the journals of drills that ended with open writes did."""

    made: int = 0
    waiting: int = 0  # left journalled: the database was busy
    refused: int = 0  # could not be made; kept in REFUSED
    folder: Path | None = None

    def lines(self) -> list[str]:
        """What to tell the user (nothing when there was nothing to replay)."""
        said = []
        if self.made:
            said.append(
                f"saved {counted(self.made, 'write')} kept from a drill that could not save "
                f"{'it' if self.made == 1 else 'them'} before it closed"
            )
        if self.waiting:
            said.append(
                f"{counted(self.waiting, 'kept write')} still waiting: the database is busy; "
                "drill tries again at its next start"
            )
        if self.refused and self.folder is not None:
            said.append(f"{counted(self.refused, 'kept write')} could not be saved; see {self.folder / REFUSED}")
        return said


def replay(
    folder: Path, make: Callable[[str, tuple[Any, ...]], object], waits: Callable[[BaseException], bool]
) -> Replayed:
    """Make, in order, the open writes of every journal in `folder` no running drill holds, with
    `make(op, arguments)`. A busy database (`waits`) stops the replay, leaving the rest journalled;
    a write that fails otherwise is written to REFUSED with its reason, and the replay goes on."""
    made = waiting = refused = 0
    if not folder.is_dir():
        return Replayed()
    with claimed(folder) as journals:
        writes = [(journal, entry) for journal in journals for entry in journal.entries]
        for position, (journal, entry) in enumerate(writes):
            try:
                make(entry.op, from_json(entry.op, entry.args))
            except Exception as error:  # noqa: BLE001 - each failure is kept and said, none stops the start
                if waits(error):
                    waiting = len(writes) - position
                    break
                with (folder / REFUSED).open("a", encoding="utf-8") as kept:
                    kept.write(json.dumps({"op": entry.op, "args": entry.args, "error": str(error)}) + "\n")
                refused += 1
            else:
                made += 1
            journal.settle(entry.key)
    return Replayed(made, waiting, refused, folder)
