"""Keeping stored schedules consistent with the history and the scheduler in use.

- Items graded before FSRS memory was stored (or whose grades were imported) get their
  state rebuilt by replaying their history: their reviews, and the forgets among them (a
  forget is an event of the history, table schedule_event: the replay starts again from new).
- Reviews stored before each review row kept the FSRS memory before it (schema 7) get it by
  replaying their items' reviews, once, in the background (Backfill): a few items per short write
  transaction of the one writer, so opening never waits for it; nothing else is rewritten.
- When config.toml names another scheduler than the one that set the stored due days, every
  item takes the due day of the new one; both models' states are always kept, so nothing
  is replayed and no history changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future

from sqlalchemy import (
    BindParameter,
    Connection,
    Engine,
    bindparam,
    false,
    func,
    null,
    or_,
    select,
    true,
    union_all,
    update,
)

from drill.schedule.grading import due_day
from drill.schedule.rebuild import FORGET, Forget, Graded, replay, replay_grades
from drill.store import facts
from drill.store.dialect import as_day
from drill.store.facts import read_fact, write_fact
from drill.store.item_states import SET_STATE, state_params, transition_params
from drill.store.queries import STATE_COLUMNS, item_state
from drill.store.recorder import Recorder
from drill.store.tables import FORGET as FORGET_KIND
from drill.store.tables import MEMORY_BEFORE_MISSING, item, review, schedule_event
from drill.store.transactions import writing

WITHOUT_MEMORY = select(item.c.id).where(item.c.last_review_day.is_not(None), item.c.fsrs_stability.is_(None))
IDS: BindParameter[list[str]] = bindparam("ids", expanding=True)
# The items' histories, each oldest first: every review (its time, id, study day, quality, and whether
# it is replayed: a cram grade that kept the schedule moved nothing) and every forget (`forget`; no id,
# day or quality), which comes after a review of the same moment (as forget_item places it).
HISTORY = union_all(
    select(
        review.c.item_id,
        review.c.reviewed_at.label("at"),
        false().label("forget"),
        review.c.id,
        review.c.study_day,
        review.c.quality,
        or_(~review.c.cram, review.c.counted).label("replayed"),
    ).where(review.c.item_id.in_(IDS)),
    select(schedule_event.c.item_id, schedule_event.c.happened_at, true(), null(), null(), null(), false()).where(
        schedule_event.c.item_id.in_(IDS), schedule_event.c.kind == FORGET_KIND
    ),
).order_by("item_id", "at", "forget", "id")
# A review row's state columns, set by its id (the other keys of the parameters).
REWRITE_REVIEW = update(review).where(review.c.id == bindparam("review_id"))
# Reviews stored without the FSRS memory before them (written before schema 7) although an earlier
# review gave them a before-state: exactly the rows of the partial index ix_review_without_memory
# (its own WHERE), so in a store kept up to date this reads an empty index.
WITHOUT_MEMORY_BEFORE = select(review.c.item_id).distinct().where(MEMORY_BEFORE_MISSING)
ANY_WITHOUT_MEMORY_BEFORE = select(review.c.id).where(MEMORY_BEFORE_MISSING).limit(1)  # the index's first row
COUNTS_WITHOUT_MEMORY_BEFORE = (
    select(review.c.item_id, func.count()).where(MEMORY_BEFORE_MISSING).group_by(review.c.item_id).order_by("item_id")
)
STATES = select(item.c.id, *STATE_COLUMNS).where(item.c.last_review_day.is_not(None))
SET_DUE = update(item).where(item.c.id == bindparam("item_id"))
BATCH = 500  # items replayed per query
FILL_REVIEWS = 5_000  # reviews lacking the memory before them filled per write transaction of the backfill


def items_without_memory(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.execute(WITHOUT_MEMORY).scalars())


def reviews_without_memory(engine: Engine) -> list[str]:
    """Items with a review stored without the FSRS memory before it (see WITHOUT_MEMORY_BEFORE)."""
    with engine.connect() as connection:
        return list(connection.execute(WITHOUT_MEMORY_BEFORE).scalars())


def any_review_without_memory(engine: Engine) -> bool:
    """Whether a review lacks the FSRS memory before it (reads one row of the partial index: every open asks)."""
    with engine.connect() as connection:
        return connection.execute(ANY_WITHOUT_MEMORY_BEFORE).first() is not None


def _histories(connection: Connection, ids: list[str]) -> dict[str, list[Graded | Forget]]:
    """Each item's history as replayed, oldest first: (review id, study day, quality) of its reviews,
    and its forgets; a cram grade that kept the schedule is left out, as it moved nothing when it
    was given."""
    grades: dict[str, list[Graded | Forget]] = {item_id: [] for item_id in ids}
    for item_id, _, forget, review_id, day, quality, replayed in connection.execute(HISTORY, {"ids": ids}):
        if forget:
            grades[item_id].append(FORGET)
        elif replayed:
            grades[item_id].append((review_id, as_day(day), quality))
    return grades


def _rebuild_batch(connection: Connection, ids: list[str], scheduler: str, rewrite_log: bool) -> None:
    for item_id, history in _histories(connection, ids).items():
        steps, state = replay(history, scheduler)
        if rewrite_log:
            for step in steps:
                connection.execute(
                    REWRITE_REVIEW,
                    {
                        "review_id": step.review_id,
                        "counted": step.counted,
                        **transition_params(step.before, step.after),
                    },
                )
        connection.execute(SET_STATE, state_params(item_id, state))


def rebuild(engine: Engine, item_ids: Iterable[str], scheduler: str, rewrite_log: bool = False) -> int:
    """Replay the stored reviews of `item_ids` and store the resulting states, in one transaction.

    With `rewrite_log`, each review row's counted flag and before/after states are recomputed
    too (for reviews that were imported rather than given here). Returns the items rebuilt.
    """
    with writing(engine) as connection:
        return rebuild_in(connection, item_ids, scheduler, rewrite_log)


def rebuild_in(connection: Connection, item_ids: Iterable[str], scheduler: str, rewrite_log: bool = False) -> int:
    """`rebuild` inside the caller's write transaction (e.g. together with the reviews it imports)."""
    ids = list(dict.fromkeys(item_ids))
    for start in range(0, len(ids), BATCH):
        _rebuild_batch(connection, ids[start : start + BATCH], scheduler, rewrite_log)
    return len(ids)


def fill_memory_before(engine: Engine, item_ids: Iterable[str], scheduler: str) -> int:
    """Replay the stored reviews of `item_ids` and write on each review row the FSRS memory before
    it, in one transaction. Nothing else changes: the items' states and the rows' SM-2 columns are
    already what the reviews gave. Returns the items replayed."""
    ids = list(dict.fromkeys(item_ids))
    with writing(engine) as connection:
        for start in range(0, len(ids), BATCH):
            memory = [
                {
                    "review_id": step.review_id,
                    "fsrs_stability_before": step.before.fsrs_stability,
                    "fsrs_difficulty_before": step.before.fsrs_difficulty,
                }
                for history in _histories(connection, ids[start : start + BATCH]).values()
                for step in replay_grades(history, scheduler)
            ]
            if memory:
                connection.execute(REWRITE_REVIEW, memory)
    return len(ids)


class Backfill:
    """The FSRS memory before each review filled in where an older drill stored none, in the
    background: `writer` makes it a group of items (about FILL_REVIEWS such reviews) per write, each
    queued after the writes handed over meanwhile, so a grade never waits for more than one group.
    `progress` hears (reviews filled, reviews to fill) after each group; `finished` gives the items
    replayed once every group is made (or the error that stopped it). `stop` ends it before the
    next group: the next open fills in the rest."""

    WHAT = "the FSRS memory of reviews an older drill stored"

    def __init__(
        self, engine: Engine, scheduler: str, writer: Recorder, progress: Callable[[int, int], object]
    ) -> None:
        self.engine = engine
        self.scheduler = scheduler
        self.writer = writer
        self.progress = progress
        self.finished: Future[int] = Future()
        self.stopped = False
        self.groups: list[tuple[list[str], int]] = []  # (items, their reviews lacking the memory)
        self.filled = self.total = self.items = 0
        writer.submit(self.WHAT, self._step, self._plan)

    def stop(self) -> None:
        self.stopped = True

    def _step(self, work: Callable[[], None]) -> None:
        """One write of the backfill (none once stopped), then the next handed to the writer, or the end said."""
        try:
            if not self.stopped:
                work()
        except BaseException as error:
            self.finished.set_exception(error)
            raise
        if self.groups and not self.stopped:
            self.writer.submit(self.WHAT, self._step, self._fill)
        else:
            self.finished.set_result(self.items)

    def _plan(self) -> None:
        """The groups to fill, read from the partial index of the reviews lacking the memory."""
        with self.engine.connect() as connection:
            for item_id, count in connection.execute(COUNTS_WITHOUT_MEMORY_BEFORE):
                if not self.groups or self.groups[-1][1] + count > FILL_REVIEWS:
                    self.groups.append(([], 0))
                ids, size = self.groups[-1]
                ids.append(item_id)
                self.groups[-1] = (ids, size + count)
                self.total += count

    def _fill(self) -> None:
        ids, reviews = self.groups.pop()
        self.items += fill_memory_before(self.engine, ids, self.scheduler)
        self.filled += reviews
        self.progress(self.filled, self.total)


def stored_scheduler(engine: Engine) -> str | None:
    """The scheduler that set the stored due days (None for a new store)."""
    return read_fact(engine, facts.SCHEDULER)


def switch_scheduler(engine: Engine, scheduler: str) -> int:
    """Give every reviewed item the due day `scheduler` sets (an item being relearnt stays due), and
    remember it; returns items moved."""
    with writing(engine) as connection:
        moves = []
        for row in connection.execute(STATES):
            state = item_state(row)
            due = due_day(state, scheduler)
            if due != state.due_day and not state.relearning:
                moves.append({"item_id": row.id, "due_day": due})
        if moves:
            connection.execute(SET_DUE, moves)
        write_fact(connection, facts.SCHEDULER, scheduler)
    return len(moves)
