"""The review log as rows for export and import: streamed out; read in, held per item, and merged
into each item's history. Its rows are the reviews and the forgets (events of the history, with
the rating FORGET_BUTTON), in time order.

An import stages every row of its file in memory (Staging: a few compact columns per item, about
13 bytes a review, so the store is not locked while the file is read and checked), then merges a
few items at a time, each in one short write transaction that reads the item's whole stored
history as it is at that moment — grades given meanwhile included — adds the new reviews,
replays the history in memory and writes each new row once, complete, in batches. Between
transactions the app can write, and every committed item is whole: an import cut short leaves
each item either merged or untouched.
"""

from __future__ import annotations

import heapq
from array import array
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from operator import itemgetter
from typing import NamedTuple

from sqlalchemy import (
    Connection,
    Engine,
    Insert,
    Row,
    Update,
    and_,
    false,
    func,
    literal_column,
    null,
    select,
    true,
    union_all,
)

from drill.days import study_day
from drill.schedule.grading import ItemState
from drill.schedule.rebuild import FORGET, Forget, Graded, replay
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store.counters import counted_in_bulk
from drill.store.dialect import as_day
from drill.store.item_states import SET_STATE, state_params, transition_params
from drill.store.reschedule import HISTORY, IDS, REWRITE_REVIEW
from drill.store.tables import FORGET as FORGET_KIND
from drill.store.tables import item, review, schedule_event
from drill.store.writes import RECORD, RECORD_EVENT

FORGET_BUTTON = 0  # a forget's rating in the log (Anki's revlog rates its manual rows 0; FSRS tools skip them)
# Every review and forget, oldest first (a forget has the rating FORGET_BUTTON and no duration).
ALL_REVIEWS = union_all(
    select(
        review.c.item_id,
        review.c.reviewed_at.label("at"),
        review.c.button,
        review.c.duration_ms,
        and_(review.c.cram, ~review.c.counted).label("kept"),  # a cram grade that kept the schedule
        false().label("forget"),
        review.c.id,
    ),
    select(
        schedule_event.c.item_id,
        schedule_event.c.happened_at,
        literal_column(str(FORGET_BUTTON)),
        literal_column("0"),
        false(),
        true(),
        null(),
    ).where(schedule_event.c.kind == FORGET_KIND),
).order_by("at", "forget", "id")
ITEM_IDS = select(item.c.id)
STREAM = 1000  # rows fetched at a time while exporting
CRAM_FLAG = 8  # added to a staged cram grade's button (buttons are 0 to 4)
BATCH = 500  # item ids per IN (...) query
FLUSH = 5000  # review rows a merge holds before writing them
CACHE_KIB = 65_536  # SQLite's page cache on the importing connection: the review table's indexes re-read less
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)

STORED_COUNTS = select(review.c.item_id, func.count()).where(review.c.item_id.in_(IDS)).group_by(review.c.item_id)
StagedRow = tuple[int, int, int, bool]  # one item's staged review: (ms, button, duration_ms, cram)
# A row of reschedule.HISTORY: the items' reviews and forgets (moments and days: dialect.py)
StoredRow = Row[str, datetime | str, bool, int | None, date | str | None, int | None, bool]
# An imported cram grade is never replayed: its state columns are placeholders, as nothing moved.
KEPT = {"counted": False, **transition_params(ItemState(), ItemState())}


@dataclass(frozen=True, slots=True)
class LoggedReview:
    """One stored review, or forget (button FORGET_BUTTON), as the open review-log format carries it."""

    item_id: str
    reviewed_at: datetime  # aware, UTC
    button: int
    duration_ms: int
    cram: bool = False  # a cram grade that kept the schedule: stored, never replayed into one


class StagedReview(NamedTuple):
    """One review (or forget) read from a file to import, as the staging table holds it."""

    item_id: str
    ms: int  # Unix time of the review in milliseconds
    button: int  # 1 to 4, or FORGET_BUTTON
    duration_ms: int
    cram: bool
    line: int  # where the file has it: the first of two reviews of one item and millisecond is kept


def to_ms(moment: datetime) -> int:
    return (moment - EPOCH) // MILLISECOND


def from_ms(milliseconds: int) -> datetime:
    return EPOCH + milliseconds * MILLISECOND


def moment(value: object) -> datetime:
    """A stored reviewed_at (ISO text in SQLite, a datetime elsewhere) as an aware UTC datetime."""
    stamp = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


def stream_reviews(engine: Engine) -> Iterator[LoggedReview]:
    """Every stored review, counted or not, and every forget, oldest first, fetched in batches."""
    with engine.connect() as connection:
        rows = connection.execution_options(yield_per=STREAM).execute(ALL_REVIEWS)
        for item_id, reviewed_at, button, duration_ms, cram, _, _ in rows:
            yield LoggedReview(item_id, moment(reviewed_at), button, duration_ms, bool(cram))


def item_ids(engine: Engine) -> list[str]:
    """Every item id in the store, retired ones included."""
    with engine.connect() as connection:
        return list(connection.execute(ITEM_IDS).scalars())


@dataclass(frozen=True)
class Merged:
    """What merging a group of items did."""

    staged: int  # staged reviews (and forgets) of the group, read
    added: int  # of those, new reviews stored
    items: int  # items that got any review or forget (their schedules replayed)
    forgets: int = 0  # new forgets stored


@contextmanager
def staging(engine: Engine) -> Iterator[Staging]:
    """A Staging merging on a connection of its own, closed afterwards."""
    with engine.connect() as connection:
        yield Staging(connection)


class _Staged:
    """One item's staged reviews as compact columns, in the order they were staged: milliseconds,
    durations, and buttons (a cram grade's with CRAM_FLAG added)."""

    __slots__ = ("buttons", "durations", "ms")

    def __init__(self) -> None:
        self.ms = array("q")
        self.durations = array("i")
        self.buttons = bytearray()

    def add(self, review: StagedReview) -> None:
        self.ms.append(review.ms)
        self.durations.append(review.duration_ms)
        self.buttons.append(review.button | CRAM_FLAG if review.cram else review.button)

    def rows(self) -> list[StagedRow]:
        """Oldest first; reviews of one millisecond in the order they were staged."""
        ms, durations, buttons = self.ms, self.durations, self.buttons
        return [
            (ms[index], buttons[index] & ~CRAM_FLAG, durations[index], buttons[index] >= CRAM_FLAG)
            for index in sorted(range(len(ms)), key=ms.__getitem__)
        ]


class Staging:
    """A file's reviews held per item in memory, then merged into the store a group of items at a
    time on one connection."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.staged: dict[str, _Staged] = {}
        if connection.dialect.name == "sqlite":
            with connection.begin():
                connection.exec_driver_sql(f"PRAGMA cache_size = -{CACHE_KIB}")

    def add(self, review: StagedReview) -> None:
        """Stage one review (or forget), in file order: of two in one item and millisecond, the first is kept."""
        staged = self.staged.get(review.item_id)
        if staged is None:
            staged = self.staged[review.item_id] = _Staged()
        staged.add(review)

    def groups(self, budget: int) -> list[list[str]]:
        """The staged items in groups whose staged and stored reviews come to about `budget` (an item
        with more is a group of its own): each group is merged in one write transaction."""
        ids = sorted(self.staged)
        stored: dict[str, int] = {}
        with self.connection.begin():
            for start in range(0, len(ids), BATCH):
                stored.update(
                    (item_id, count)
                    for item_id, count in self.connection.execute(STORED_COUNTS, {"ids": ids[start : start + BATCH]})
                )
        groups: list[list[str]] = []
        size = budget
        for item_id in ids:
            rows = len(self.staged[item_id].ms) + stored.get(item_id, 0)
            if size + rows > budget:
                groups.append([])
                size = 0
            groups[-1].append(item_id)
            size += rows
        return groups

    def merge(self, ids: list[str], rollover_hour: int, scheduler: str) -> Merged:
        """In one write transaction: add the staged reviews of `ids` that the store lacks (same item,
        same millisecond) and replay each item's whole history, as stored now, into its new review
        rows, the stored rows from the first new review on, and its schedule (their review counters
        moved set-based: drill.store.counters). The merged items' staged reviews are let go once
        committed."""
        connection = self.connection.execution_options(write=True)  # from now on (in place): BEGIN IMMEDIATE
        with connection.begin(), counted_in_bulk(connection, ids):
            stored: dict[str, list[StoredRow]] = defaultdict(list)
            for row in connection.execute(HISTORY, {"ids": ids}):
                stored[row[0]].append(row)
            writes = _Writes(connection, rollover_hour, scheduler)
            staged = 0
            for item_id in ids:
                rows = self.staged[item_id].rows()
                staged += len(rows)
                writes.merge(item_id, stored[item_id], rows)
            writes.flush()
        for item_id in ids:
            del self.staged[item_id]
        return Merged(staged, writes.added, writes.items, writes.forgets)


@dataclass(slots=True)
class _Entry:
    """One review (its study day and quality) or forget in an item's history while it is merged: a
    stored review (`review_id`), a new one (`row`), or a forget, stored or new."""

    at: datetime
    grade: tuple[date, int] | Forget
    review_id: int | None = None
    row: dict[str, object] | None = None


class _Writes:
    """The rows one merge transaction inserts and rewrites, and the schedules it sets."""

    def __init__(self, connection: Connection, rollover_hour: int, scheduler: str) -> None:
        self.connection = connection
        self.rollover_hour = rollover_hour
        self.scheduler = scheduler
        self.inserts: list[dict[str, object]] = []
        self.events: list[dict[str, object]] = []
        self.rewrites: list[dict[str, object]] = []
        self.states: list[dict[str, object]] = []
        self.added = 0
        self.forgets = 0
        self.items = 0

    def merge(self, item_id: str, stored: list[StoredRow], staged: list[StagedRow]) -> None:
        """Add one item's new reviews and forgets (staged ones in no millisecond that has a stored
        one of their kind; the first of a repeated one) and replay its history, rewriting the rows
        from the first new one on."""
        taken: dict[bool, set[int]] = {False: set(), True: set()}  # the milliseconds of reviews, of forgets
        history: list[_Entry] = []
        for _, stamp, forget, review_id, day, quality, replayed in stored:
            at = moment(stamp)
            taken[bool(forget)].add(to_ms(at))
            if forget:
                history.append(_Entry(at, FORGET))
            elif replayed:
                assert review_id is not None and day is not None and quality is not None  # a review's row
                history.append(_Entry(at, (as_day(day), quality), review_id))
        new: list[_Entry] = []
        changed = self.added + self.forgets
        for ms, button, duration_ms, cram in staged:
            kind = taken[button == FORGET_BUTTON]
            if ms in kind:
                continue
            kind.add(ms)
            at = from_ms(ms)
            if button == FORGET_BUTTON:
                self.events.append({"item_id": item_id, "happened_at": at, "kind": FORGET_KIND})
                new.append(_Entry(at, FORGET))
                self.forgets += 1
                continue
            day, quality = study_day(at, self.rollover_hour), BUTTON_QUALITY[button]
            row: dict[str, object] = {
                "item_id": item_id,
                "reviewed_at": at,
                "study_day": day,
                "button": button,
                "quality": quality,
                "duration_ms": duration_ms,
                "cram": bool(cram),
                "typed_answer": None,
                "ticked": None,
            }
            if cram:
                self.inserts.append(row | KEPT)
            else:
                new.append(_Entry(at, (day, quality), row=row))
            self.added += 1
        self.items += self.added + self.forgets > changed
        if new:
            self._replay(item_id, list(heapq.merge(history, new, key=lambda entry: entry.at)), new[0].at)

    def _replay(self, item_id: str, timeline: list[_Entry], first: datetime) -> None:
        history: Iterator[Graded | Forget] = (
            entry.grade if isinstance(entry.grade, Forget) else (index, *entry.grade)
            for index, entry in enumerate(timeline)
        )
        steps, state = replay(history, self.scheduler)
        for step in steps:
            entry = timeline[step.review_id]
            if entry.at < first:
                continue
            row: dict[str, object] = {"review_id": entry.review_id} if entry.row is None else entry.row
            row["counted"] = step.counted
            row.update(transition_params(step.before, step.after))
            (self.rewrites if entry.row is None else self.inserts).append(row)
        self.states.append(state_params(item_id, state))
        if len(self.inserts) + len(self.events) + len(self.rewrites) >= FLUSH:
            self.flush()

    def flush(self) -> None:
        """Write what is pending (the transaction stays open)."""
        for statement, rows in (
            (RECORD, self.inserts),
            (RECORD_EVENT, self.events),
            (REWRITE_REVIEW, self.rewrites),
            (SET_STATE, self.states),
        ):
            if rows:
                execute_many(self.connection, statement, rows)
                rows.clear()


def execute_many(connection: Connection, statement: Insert | Update, rows: list[dict[str, object]]) -> None:
    """`statement` run for every row (its columns and parameters are the rows' keys), handed to the
    driver as it stands: SQLAlchemy's own handling of each row's parameters costs more than SQLite
    takes to insert it. (The values go to the driver unconverted: SQLite's adapters write days and
    moments as the ISO text the column types would.)"""
    compiled = statement.compile(dialect=connection.dialect, column_keys=list(rows[0]))
    order = compiled.positiontup  # the names in order, for a driver taking positional parameters
    connection.exec_driver_sql(compiled.string, list(map(itemgetter(*order), rows)) if order else rows)
