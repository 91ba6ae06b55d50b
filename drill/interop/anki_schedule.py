"""drill's schedules as Anki holds them, written into an exported package's collection
(`drill export --anki --with-schedule`).

A card drill has reviewed becomes an Anki review card: due on its due day, its interval the days
from its last review to that day, its ease factor SM-2's easiness in permille (2.5 → 2500; both
stop at 1.3), its reps every grade but the cram grades that kept the schedule, its lapses the
counted Agains of a learned card, and its FSRS memory (stability, difficulty: Anki's card data)
with the time of its last counted grade. A new card stays new; a suspended one is suspended.

Each grade is a review-log row: its id the review time in milliseconds (the log's key: a grade at
the same millisecond as an earlier one of the package is moved 1 ms on), ease the button, ivl
the days from its study day to the due day it gave, lastIvl the grade before's, factor the
easiness after it, time its duration, and type learn (a grade on the item's first study day),
review (a later day's counted grade), relearn (a later day's repeat) or filtered (a cram grade
that kept the schedule).

Anki counts a review card's due day from the day its collection was created (`crt`), and a
package import moves it by the days between the package's collection and the importing one. The
package's collection is created at the start of today's study day, with drill's rollover hour,
so a card due in 3 days is due 3 days after the day Anki imports it. Anki takes all this only
when it adds a card (an import with "Import any learning progress" ticked): it never changes the
schedule of a card it already has.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import TYPE_CHECKING, NamedTuple

from drill.days import to_local

if TYPE_CHECKING:
    from drill.store.schedules import ItemSchedule, LoggedGrade

SCHEDULER_VERSION = 2  # the package's scheduler: without it Anki reads the log as version 1's (3 buttons)
NEW, REVIEW = 0, 2  # card types (and queues)
SUSPENDED = -1  # queue
LEARN, REVIEWED, RELEARN, FILTERED = 0, 1, 2, 3  # review-log types


@dataclass(frozen=True)
class Schedules:
    """Every item's schedule (drill.store.schedules) on study day `today`."""

    items: dict[str, ItemSchedule]
    today: date
    rollover_hour: int


@dataclass
class ScheduleCounts:
    """What went into the package: cards with a schedule (reviewed), suspended cards, review-log rows."""

    scheduled: int = 0
    suspended: int = 0
    grades: int = 0


class CardColumns(NamedTuple):
    """An Anki card's scheduling columns, by name."""

    type: int
    queue: int
    due: int
    ivl: int
    factor: int
    reps: int
    lapses: int
    data: str


SET_CARD = f"UPDATE cards SET {', '.join(f'{name} = :{name}' for name in CardColumns._fields)} WHERE id = :id"


class RevlogRow(NamedTuple):
    """One row of Anki's review log, by column name."""

    id: int
    cid: int
    usn: int
    ease: int
    ivl: int
    lastIvl: int
    factor: int
    time: int
    type: int


def card_columns(schedule: ItemSchedule, today: date) -> CardColumns | None:
    """The scheduling columns of an item's card (None: new and not suspended, as genanki wrote it)."""
    state = schedule.state
    if state.is_new or state.due_day is None or state.last_review_day is None:
        return CardColumns(NEW, SUSPENDED, 0, 0, 0, 0, 0, "") if schedule.suspended else None
    answers = [grade for grade in schedule.grades if not _kept(grade)]
    counted = [grade for grade in answers if grade.counted]
    memory: dict[str, float | int] = {}
    if state.fsrs_stability is not None and state.fsrs_difficulty is not None:
        memory = {"s": state.fsrs_stability, "d": state.fsrs_difficulty}
    if counted:
        memory["lrt"] = counted[-1].ms // 1000
    return CardColumns(
        REVIEW,
        SUSPENDED if schedule.suspended else REVIEW,
        (state.due_day - today).days,
        max(1, (state.due_day - state.last_review_day).days),
        round(state.easiness * 1000),
        len(answers),
        sum(1 for grade in counted if grade.button == 1 and grade.reps_before > 0),
        json.dumps(memory) if memory else "",
    )


def revlog_rows(schedule: ItemSchedule, card_id: int) -> list[RevlogRow]:
    """An item's grades as review-log rows of its card, oldest first (ids not yet made unique)."""
    rows = []
    first_day = next((grade.study_day for grade in schedule.grades if grade.counted), None)
    last_interval = 0
    for grade in schedule.grades:
        interval = 0 if grade.due_after is None else (grade.due_after - grade.study_day).days
        if _kept(grade):
            kind = FILTERED
        elif grade.study_day == first_day:
            kind = LEARN
        else:
            kind = REVIEWED if grade.counted else RELEARN
        rows.append(
            RevlogRow(
                grade.ms,
                card_id,
                -1,
                grade.button,
                interval,
                last_interval,
                round(grade.ease_after * 1000),
                grade.duration_ms,
                kind,
            )
        )
        last_interval = interval
    return rows


def _kept(grade: LoggedGrade) -> bool:
    """A cram grade that kept the schedule."""
    return grade.cram and not grade.counted


def write_schedules(
    connection: sqlite3.Connection, schedules: Schedules, items_by_guid: dict[str, str]
) -> ScheduleCounts:
    """Give the cards of the package's collection (open on `connection`) their items' schedules
    and review logs; `items_by_guid` names each note's item."""
    day_start = to_local(datetime.combine(schedules.today, time(schedules.rollover_hour)))  # naive: local time
    (conf,) = connection.execute("SELECT conf FROM col").fetchone()
    conf = json.loads(conf) | {"schedVer": SCHEDULER_VERSION, "rollover": schedules.rollover_hour}
    connection.execute("UPDATE col SET crt = ?, conf = ?", (int(day_start.timestamp()), json.dumps(conf)))
    counts = ScheduleCounts()
    log: list[RevlogRow] = []
    cards = connection.execute("SELECT cards.id, notes.guid FROM cards JOIN notes ON notes.id = cards.nid").fetchall()
    for card_id, guid in cards:
        schedule = schedules.items.get(items_by_guid[guid])
        if schedule is None:
            continue  # not in the store yet: new
        columns = card_columns(schedule, schedules.today)
        if columns is not None:
            connection.execute(SET_CARD, {**columns._asdict(), "id": card_id})
            counts.scheduled += columns.type == REVIEW
            counts.suspended += columns.queue == SUSPENDED
        log += revlog_rows(schedule, card_id)
    connection.executemany("INSERT INTO revlog VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", _unique_ids(log))
    counts.grades = len(log)
    return counts


def _unique_ids(log: list[RevlogRow]) -> list[RevlogRow]:
    """The rows oldest first, each id (milliseconds) past the one before."""
    unique: list[RevlogRow] = []
    for row in sorted(log):
        if unique and row.id <= unique[-1].id:
            row = row._replace(id=unique[-1].id + 1)
        unique.append(row)
    return unique
