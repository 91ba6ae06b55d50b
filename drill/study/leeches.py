"""Leeches found as reviews are saved, and when leech_action is taken on them.

The rule: a saved review that makes its item a leech (drill.schedule.leech: only a day's counted
Again can) is reported at once; with leech_action = "suspend" the item is suspended when the
session it was flagged in ends (`end_session`: the app back on its home screen, or the study
closing), never while that session may still show it, so its repeats today still come and are
answered. An import is its own session: drill.store.leeches.act_on_imported acts at once."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Protocol, TypeVar

from sqlalchemy import Engine

from drill.config import Config
from drill.schedule.leech import Flagged
from drill.schedule.records import Grade
from drill.store.leeches import AGAIN, standing
from drill.store.recorder import Recorder
from drill.store.writes import set_suspended

T = TypeVar("T")


def can_flag(arguments: tuple[object, ...]) -> bool:
    """Whether a write with these arguments may flag its item: not when each grade among them is a
    pass (Hard, Good, Easy), which adds no lapse and ends a failed run or counts for neither (only
    an Again raises a drill.schedule.leech level)."""
    grades = [argument for argument in arguments if isinstance(argument, Grade)]
    return not grades or any(grade.button == AGAIN for grade in grades)


class Watched(Protocol):
    """The study whose reviews are watched (the core passes itself): its store, settings and writer."""

    engine: Engine
    config: Config
    writer: Recorder


class Leeches:
    """The flags of one study's reviews, and the suspensions they wait to make."""

    def __init__(self, study: Watched) -> None:
        self.study = study
        self.report: Callable[[Flagged], object] = lambda _flagged: None  # called from the writer's thread
        self.to_suspend: list[str] = []  # flagged under leech_action = "suspend", not yet suspended

    def watching(self, item_id: str, write: Callable[..., T], *arguments: object) -> T:
        """Make a review's write (on the writer's thread); if it flags the item, report it and, under
        leech_action = "suspend", keep it for the end of the session. A write that cannot flag
        (`can_flag`) is made without reading the item's standing around it."""
        if not can_flag(arguments):
            return write(*arguments)
        engine, config = self.study.engine, self.study.config
        with engine.connect() as connection:
            before = standing(connection, item_id)
        written = write(*arguments)
        with engine.connect() as connection:
            now = standing(connection, item_id)
        if now.flagged_after(before, config.leech_threshold):
            suspends = config.leech_action == "suspend"
            if suspends and item_id not in self.to_suspend:
                self.to_suspend.append(item_id)
            self.report(Flagged(now, suspends))
        return written

    def end_session(self) -> Future[list[str]]:
        """Suspend the leeches flagged since the last session ended, after every write handed over
        before (the writer keeps their order); the future gives their ids."""
        return self.study.writer.submit("suspending this session's leeches", self._suspend_flagged)

    def _suspend_flagged(self) -> list[str]:
        """Each kept leech suspended in turn; one that fails stays kept for the next end."""
        done = []
        while self.to_suspend:
            set_suspended(self.study.engine, self.to_suspend[0], True)
            done.append(self.to_suspend.pop(0))
        return done
