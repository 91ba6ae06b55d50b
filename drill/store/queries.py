"""Read queries: queue candidates, cards to show, and per-block counts. SQL aggregates only."""

from __future__ import annotations

import json
from datetime import date
from typing import TYPE_CHECKING, Any

from pydantic import Field
from sqlalchemy import Engine, Integer, and_, bindparam, case, cast, distinct, false, func, select

from drill.read_model import ReadModel
from drill.schedule.grading import ItemState
from drill.schedule.plan import PlanCounts
from drill.schedule.queue import Candidate
from drill.schedule.records import Card
from drill.store.dialect import Dialect, as_date, as_day, dialect
from drill.store.tables import estimate_attempt, item, review, review_day

if TYPE_CHECKING:
    from sqlalchemy import ColumnElement, Row, Select

ACTIVE = and_(item.c.retired == false(), item.c.suspended == false())
REVIEWED = and_(ACTIVE, item.c.kind != "coding")  # coding drills are practised from their own screen


class BlockCounts(ReadModel):
    """One block on the home screen: active items, due today, unseen, and reviews given."""

    items: int = 0  # coding drills included
    due: int = 0  # coding drills included: they come up in the review (`drill queue`) like the rest
    new: int = 0  # never reviewed, coding drills aside (they start from the drills screen)
    drills: int = Field(default=0, exclude=True)  # coding drills among the items (home's own column)
    reviews: int = 0


class DayProgress(ReadModel):
    reviews_done: int
    new_done: int
    new_done_by_kind: dict[str, int] = Field(default_factory=dict)


# The queue's lanes: each block's due items (each kind's unseen items in a block) in its own order,
# read from the covering indexes ix_item_due and ix_item_new.
def _due_lanes(until: ColumnElement[Any]) -> Select[Any]:
    """Each block's first `per_block` due items, due no later than `until`, most overdue first."""
    lanes = (
        select(
            item.c.id,
            item.c.block,
            item.c.due_day,
            item.c.kind,
            item.c.siblings,
            item.c.position,
            func.row_number().over(partition_by=item.c.block, order_by=(item.c.due_day, item.c.position)).label("lane"),
        )
        .where(ACTIVE, item.c.due_day <= until)
        .subquery("lanes")
    )
    return (
        select(lanes.c.id, lanes.c.block, lanes.c.due_day, lanes.c.kind, lanes.c.siblings)
        .where(lanes.c.lane <= bindparam("per_block"))
        .order_by(lanes.c.due_day, lanes.c.position)
    )


# The due day of the due item after the first `skip` (most overdue first); NULL: no more are due.
_NTH_DUE_DAY = (
    select(item.c.due_day)
    .where(ACTIVE, item.c.due_day <= bindparam("today"))
    .order_by(item.c.due_day)
    .limit(1)
    .offset(bindparam("skip", type_=Integer))
    .scalar_subquery()
)
DUE = _due_lanes(bindparam("today"))
FIRST_DUE = _due_lanes(func.coalesce(_NTH_DUE_DAY, bindparam("today")))
_NEW_LANES = (
    select(
        item.c.id,
        item.c.block,
        item.c.kind,
        item.c.siblings,
        item.c.position,
        func.row_number().over(partition_by=(item.c.kind, item.c.block), order_by=item.c.position).label("lane"),
    )
    .where(ACTIVE, item.c.last_review_day.is_(None))
    .subquery("lanes")
)
NEW = (
    select(_NEW_LANES.c.id, _NEW_LANES.c.block, _NEW_LANES.c.kind, _NEW_LANES.c.siblings)
    .where(_NEW_LANES.c.lane <= bindparam("per_block"))
    .order_by(_NEW_LANES.c.position)
)


def due_candidates(engine: Engine, today: date, per_block: int, first: int | None = None) -> list[Candidate]:
    """Due items, coding drills included, at most `per_block` per block: the queue keeps each
    block's own order, so nothing past a block's first `per_block` can ever be chosen today.

    With `first` (at least 1), only those due no later than the day the first `first` of them
    (most overdue first) reach: the queue takes due items by due day, so the later ones follow at
    least `first` others (drill.schedule.queue.fills_day says whether they are enough).
    """
    statement, parameters = (DUE, {}) if first is None else (FIRST_DUE, {"skip": first - 1})
    with engine.connect() as connection:
        rows = connection.execute(statement, {"today": today, "per_block": per_block, **parameters})
        return [Candidate(row[0], row[1], as_date(row[2]), row[3], row[4]) for row in rows]


def new_candidates(engine: Engine, per_block: int) -> list[Candidate]:
    """Unseen items in content order, coding drills included, at most `per_block` of each kind per block."""
    with engine.connect() as connection:
        rows = connection.execute(NEW, {"per_block": per_block})
        return [Candidate(row[0], row[1], None, row[2], row[3]) for row in rows]


DUE_LOAD = (
    select(item.c.due_day, func.count())
    .where(ACTIVE, item.c.due_day.between(bindparam("first"), bindparam("last")), item.c.id != bindparam("id"))
    .group_by(item.c.due_day)
)


def due_load(engine: Engine, item_id: str, first: date, last: date) -> dict[date, int]:
    """How many items besides `item_id` are due on each day from `first` to `last` (days with none
    left out): the load a passed item's due day is spread over (drill.schedule.load_balance)."""
    with engine.connect() as connection:
        rows = connection.execute(DUE_LOAD, {"first": first, "last": last, "id": item_id}).all()
    return {as_day(day): number for day, number in rows}


REVIEWED_TODAY = (
    select(item.c.id, item.c.block, item.c.kind, item.c.siblings)
    .distinct()
    .join_from(review, item, item.c.id == review.c.item_id)
    .where(review.c.study_day == bindparam("today"), item.c.siblings.is_not(None))
)


def reviewed_today(engine: Engine, today: date) -> list[Candidate]:
    """The items with a sibling group graded today (their siblings wait for another day)."""
    with engine.connect() as connection:
        rows = connection.execute(REVIEWED_TODAY, {"today": today}).all()
    return [Candidate(row.id, row.block, None, row.kind, row.siblings) for row in rows]


DAY_PROGRESS = (
    select(item.c.kind, func.count(), func.count().filter(and_(review.c.counted, review.c.last_day_before.is_(None))))
    .join_from(review, item, item.c.id == review.c.item_id)
    .where(review.c.study_day == bindparam("today"))
    .group_by(item.c.kind)
)


def day_progress(engine: Engine, today: date) -> DayProgress:
    """How many grades were given today, and how many items (of each kind) were seen for the first time."""
    with engine.connect() as connection:
        rows = connection.execute(DAY_PROGRESS, {"today": today}).all()
    new_by_kind = {kind: new for kind, _, new in rows if new}
    return DayProgress(
        reviews_done=sum(row[1] for row in rows), new_done=sum(new_by_kind.values()), new_done_by_kind=new_by_kind
    )


STATE_COLUMNS = (
    item.c.repetitions,
    item.c.interval,
    item.c.easiness,
    item.c.due_day,
    item.c.last_review_day,
    item.c.fsrs_stability,
    item.c.fsrs_difficulty,
    item.c.fsrs_due_day,
)
CARD_COLUMNS = (
    item.c.id,
    item.c.kind,
    item.c.block,
    item.c.topic,
    item.c.prompt,
    item.c.answer,
    item.c.source,
    item.c.points,
    item.c.target_seconds,
    item.c.errata,
    *STATE_COLUMNS,
)


def item_state(row: Row[*tuple[Any, ...]]) -> ItemState:
    """An item's schedule from a row holding STATE_COLUMNS."""
    return ItemState(
        row.repetitions,
        row.interval,
        row.easiness,
        as_date(row.due_day),
        as_date(row.last_review_day),
        row.fsrs_stability,
        row.fsrs_difficulty,
        as_date(row.fsrs_due_day),
    )


def _card(row: Row[*tuple[Any, ...]]) -> Card:
    return Card(
        row.id,
        row.kind,
        row.block,
        row.topic,
        row.prompt,
        row.answer,
        row.source,
        json.loads(row.points),
        row.target_seconds,
        item_state(row),
        row.errata,
    )


def session_pool(engine: Engine) -> list[Card]:
    """Every active item a review session shows (coding drills are practised from their own screen)."""
    with engine.connect() as connection:
        return [_card(row) for row in connection.execute(select(*CARD_COLUMNS).where(REVIEWED))]


MEAN_ESTIMATE_SCORES = select(estimate_attempt.c.item_id, func.avg(estimate_attempt.c.score)).group_by(
    estimate_attempt.c.item_id
)


def mean_estimate_scores(engine: Engine) -> dict[str, float]:
    """Each estimation family's mean score over its attempts (families never tried left out)."""
    with engine.connect() as connection:
        return dict(connection.execute(MEAN_ESTIMATE_SCORES).all())


CARDS = select(*CARD_COLUMNS).where(item.c.id.in_(bindparam("ids", expanding=True)))


def cards(engine: Engine, ids: list[str]) -> list[Card]:
    """The cards for `ids`, in the order given."""
    if not ids:
        return []
    with engine.connect() as connection:
        found = {row.id: _card(row) for row in connection.execute(CARDS, {"ids": ids})}
    return [found[id_] for id_ in ids if id_ in found]


_NOT_A_DRILL = item.c.kind != "coding"
BLOCK_ITEMS = (
    select(
        item.c.block,
        func.count().label("items"),
        func.count().filter(and_(item.c.last_review_day.is_(None), _NOT_A_DRILL)).label("new"),
        func.count().filter(item.c.kind == "coding").label("drills"),
    )
    .where(ACTIVE)
    .group_by(item.c.block)
)
# Every block an item has, with its reviews: the day counters' sums (review_day, kept by the review
# table's triggers), not the reviews themselves.
_BLOCKS = select(item.c.block).distinct().subquery("blocks")
_BLOCK_SUMS = (
    select(review_day.c.block, func.sum(review_day.c.reviews).label("reviews"))
    .group_by(review_day.c.block)
    .subquery("sums")
)
BLOCK_REVIEWS = select(_BLOCKS.c.block, cast(func.coalesce(_BLOCK_SUMS.c.reviews, 0), Integer)).join_from(
    _BLOCKS, _BLOCK_SUMS, _BLOCK_SUMS.c.block == _BLOCKS.c.block, isouter=True
)


def block_counts(engine: Engine) -> dict[str, BlockCounts]:
    """Per block: active items, unseen, and reviews given (what is due today is the queue's to say)."""
    with engine.connect() as connection:
        counts = {
            row.block: BlockCounts(items=row.items, new=row.new, drills=row.drills)
            for row in connection.execute(BLOCK_ITEMS)
        }
        for block, number in connection.execute(BLOCK_REVIEWS):
            counts[block] = counts.get(block, BlockCounts()).model_copy(update={"reviews": number})
    return counts


REVIEWS_TOTAL = select(cast(func.coalesce(func.sum(review_day.c.reviews), 0), Integer))


def reviews_total(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(REVIEWS_TOTAL).scalar_one()


def _pending(sql: Dialect, interview: date, window_start: date) -> ColumnElement[bool]:
    """Items the interview plan brings forward. Keeping SQLite off an index on the last review
    day keeps it on ix_item_due (the range of due days past the interview) rather than scanning
    every seen item by last review."""
    return and_(REVIEWED, item.c.due_day > interview, sql.unindexed_column(item.c.last_review_day) < window_start)


def plan_counts(engine: Engine, today: date, interview: date, window_start: date) -> PlanCounts:
    """The interview plan's inputs: items to bring forward, reviews per day until the interview
    (overdue and today's already-reviewed items count on today), and unseen items as at the
    start of today."""
    sql = dialect(engine)
    pending = select(func.count()).where(_pending(sql, interview, window_start))
    day = sql.greatest_of(item.c.due_day, bindparam("today", today, type_=item.c.due_day.type)).label("day")
    scheduled_days = select(day, func.count()).where(REVIEWED, item.c.due_day < interview).group_by("day")
    unseen = select(func.count()).where(REVIEWED, item.c.last_review_day.is_(None))
    seen_today = (
        select(
            func.count(distinct(case((review.c.last_day_before.is_(None), item.c.id)))),
            func.count(distinct(case((review.c.last_day_before.is_not(None), item.c.id)))),
        )
        .join_from(review, item, item.c.id == review.c.item_id)
        .where(review.c.study_day == today, review.c.counted, REVIEWED)
    )
    with engine.connect() as connection:
        pending_count = connection.execute(pending).scalar_one()
        scheduled = {as_day(day): number for day, number in connection.execute(scheduled_days)}
        unseen_count = connection.execute(unseen).scalar_one()
        first_seen, seen_again = connection.execute(seen_today).one()
    if seen_again:
        scheduled[today] = scheduled.get(today, 0) + seen_again
    return PlanCounts(
        pending=pending_count, scheduled=scheduled, unseen=unseen_count + first_seen, seen_today=first_seen
    )


def _forward(engine: Engine, interview: date, window_start: date, limit: int) -> Select[str, str, str, str | None]:
    """The first `limit` items to bring forward: earliest due first, then content order."""
    return (
        select(item.c.id, item.c.block, item.c.kind, item.c.siblings)
        .where(_pending(dialect(engine), interview, window_start))
        .order_by(item.c.due_day, item.c.position)
        .limit(limit)
    )


def brought_forward(engine: Engine, today: date, interview: date, window_start: date, limit: int) -> list[Candidate]:
    """The first `limit` items to bring forward (earliest due first, then content order), due today."""
    if limit <= 0:
        return []
    with engine.connect() as connection:
        rows = connection.execute(_forward(engine, interview, window_start, limit)).all()
    return [Candidate(row.id, row.block, today, row.kind, row.siblings) for row in rows]
