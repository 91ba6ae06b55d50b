"""Read queries: queue candidates, cards to show, and per-block counts. SQL aggregates only."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date

from sqlalchemy import Engine, bindparam, text

from drill.schedule.grading import ItemState
from drill.schedule.plan import PlanCounts
from drill.schedule.queue import Candidate
from drill.schedule.records import Card
from drill.store.dialect import Dialect, as_date, dialect

ACTIVE = "retired = FALSE AND suspended = FALSE"
REVIEWED = f"{ACTIVE} AND kind != 'coding'"  # coding drills are practised from their own screen


@dataclass(frozen=True)
class BlockCounts:
    """One block on the home screen: active items, due today, unseen, and reviews given."""

    items: int = 0
    due: int = 0  # coding drills are left out: they come up in the review but are not counted here
    new: int = 0
    reviews: int = 0

    def as_json(self) -> dict[str, int]:
        return {"items": self.items, "due": self.due, "new": self.new, "reviews": self.reviews}


@dataclass(frozen=True)
class DayProgress:
    reviews_done: int
    new_done: int
    new_done_by_kind: dict[str, int] = field(default_factory=dict)


def queue_candidates(engine: Engine, today: date, per_block: int) -> tuple[list[Candidate], list[Candidate]]:
    """Due items (not yet seen today) and unseen items, at most `per_block` of each per block
    (and, for unseen items, per kind in a block), coding drills included.

    The queue keeps each block's own order, so nothing past a block's first `per_block`
    items can ever be chosen today: the database is asked for no more than that.
    """
    with engine.connect() as connection:
        due = [
            Candidate(row[0], row[1], as_date(row[2]), row[3], row[4])
            for row in connection.execute(
                text(
                    f"""SELECT id, block, due_day, kind, siblings FROM (
                        SELECT id, block, due_day, kind, siblings, position, ROW_NUMBER() OVER (
                            PARTITION BY block ORDER BY due_day, position) AS lane
                        FROM item WHERE {ACTIVE} AND due_day <= :today) AS lanes
                    WHERE lane <= :per_block ORDER BY due_day, position"""
                ),
                {"today": today, "per_block": per_block},
            )
        ]
        new = [
            Candidate(row[0], row[1], None, row[2], row[3])
            for row in connection.execute(
                text(
                    f"""SELECT id, block, kind, siblings FROM (
                        SELECT id, block, kind, siblings, position, ROW_NUMBER() OVER (
                            PARTITION BY kind, block ORDER BY position) AS lane
                        FROM item WHERE {ACTIVE} AND last_review_day IS NULL) AS lanes
                    WHERE lane <= :per_block ORDER BY position"""
                ),
                {"per_block": per_block},
            )
        ]
    return due, new


def due_load(engine: Engine, item_id: str, first: date, last: date) -> dict[date, int]:
    """How many items besides `item_id` are due on each day from `first` to `last` (days with none
    left out): the load a passed item's due day is spread over (drill.schedule.load_balance)."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                f"""SELECT due_day, COUNT(*) FROM item WHERE {ACTIVE} AND due_day BETWEEN :first AND :last
                AND id != :id GROUP BY due_day"""
            ),
            {"first": first, "last": last, "id": item_id},
        ).all()
    return {as_date(day): number for day, number in rows}


def reviewed_today(engine: Engine, today: date) -> list[Candidate]:
    """The items with a sibling group graded today (their siblings wait for another day)."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT DISTINCT item.id, item.block, item.kind, item.siblings
                FROM review JOIN item ON item.id = review.item_id
                WHERE review.study_day = :today AND item.siblings IS NOT NULL"""
            ),
            {"today": today},
        ).all()
    return [Candidate(row.id, row.block, None, row.kind, row.siblings) for row in rows]


def day_progress(engine: Engine, today: date) -> DayProgress:
    """How many grades were given today, and how many items (of each kind) were seen for the first time."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT item.kind, COUNT(*), COUNT(*) FILTER (WHERE review.counted AND review.last_day_before IS NULL)
                FROM review JOIN item ON item.id = review.item_id WHERE review.study_day = :today GROUP BY item.kind"""
            ),
            {"today": today},
        ).all()
    new_by_kind = {kind: new for kind, _, new in rows if new}
    return DayProgress(sum(row[1] for row in rows), sum(new_by_kind.values()), new_by_kind)


STATE_COLUMNS = """repetitions, interval, easiness, due_day, last_review_day, fsrs_stability, fsrs_difficulty,
    fsrs_due_day"""
CARD_COLUMNS = f"id, kind, block, topic, prompt, answer, source, points, target_seconds, errata, {STATE_COLUMNS}"


def item_state(row) -> ItemState:
    """An item's schedule from a row holding STATE_COLUMNS."""
    return ItemState(
        row.repetitions, row.interval, row.easiness, as_date(row.due_day), as_date(row.last_review_day),
        row.fsrs_stability, row.fsrs_difficulty, as_date(row.fsrs_due_day),
    )


def _card(row) -> Card:
    return Card(
        row.id, row.kind, row.block, row.topic, row.prompt, row.answer, row.source,
        json.loads(row.points), row.target_seconds, item_state(row), row.errata,
    )


def session_pool(engine: Engine) -> list[Card]:
    """Every active item a review session shows (coding drills are practised from their own screen)."""
    with engine.connect() as connection:
        return [_card(row) for row in connection.execute(text(f"SELECT {CARD_COLUMNS} FROM item WHERE {REVIEWED}"))]


def mean_estimate_scores(engine: Engine) -> dict[str, float]:
    """Each estimation family's mean score over its attempts (families never tried left out)."""
    with engine.connect() as connection:
        return dict(connection.execute(text("SELECT item_id, AVG(score) FROM estimate_attempt GROUP BY item_id")).all())


def cards(engine: Engine, ids: list[str]) -> list[Card]:
    """The cards for `ids`, in the order given."""
    if not ids:
        return []
    query = text(f"SELECT {CARD_COLUMNS} FROM item WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))
    with engine.connect() as connection:
        found = {row.id: _card(row) for row in connection.execute(query, {"ids": ids})}
    return [found[id_] for id_ in ids if id_ in found]


def block_counts(engine: Engine, today: date) -> dict[str, BlockCounts]:
    """Per block: active items, due today, unseen, and reviews given."""
    with engine.connect() as connection:
        items = connection.execute(
            text(
                f"""SELECT block, COUNT(*) AS items,
                    COUNT(*) FILTER (WHERE due_day <= :today AND kind != 'coding') AS due,
                    COUNT(*) FILTER (WHERE last_review_day IS NULL AND kind != 'coding') AS new
                FROM item WHERE {ACTIVE} GROUP BY block"""
            ),
            {"today": today},
        ).all()
        reviews = dict(
            connection.execute(
                # per item through the review index: far cheaper than joining every review row
                text(
                    """SELECT block, CAST(SUM((SELECT COUNT(*) FROM review WHERE review.item_id = item.id)) AS INTEGER)
                    FROM item GROUP BY block"""
                )
            ).all()
        )
    counts = {row.block: BlockCounts(row.items, row.due, row.new) for row in items}
    for block, number in reviews.items():
        counts[block] = replace(counts.get(block, BlockCounts()), reviews=number)
    return counts


def due_drills(engine: Engine, today: date) -> list[str]:
    """The ids of the coding drills due today (they come up in today's review)."""
    with engine.connect() as connection:
        return list(
            connection.execute(
                text(f"""SELECT id FROM item WHERE {ACTIVE} AND kind = 'coding' AND due_day <= :today
                    ORDER BY due_day, position"""),
                {"today": today},
            ).scalars()
        )


def reviews_total(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT COUNT(*) FROM review")).scalar_one()


def _pending(sql: Dialect) -> str:
    """Items the interview plan brings forward. Keeping SQLite off an index on the last review
    day keeps it on ix_item_due (the range of due days past the interview) rather than scanning
    every seen item by last review."""
    return f"{REVIEWED} AND due_day > :interview AND {sql.unindexed('last_review_day')} < :window_start"


def plan_counts(engine: Engine, today: date, interview: date, window_start: date) -> PlanCounts:
    """The interview plan's inputs: items to bring forward, reviews per day until the interview
    (overdue and today's already-reviewed items count on today), and unseen items as at the
    start of today."""
    params = {"today": today, "interview": interview, "window_start": window_start}
    sql = dialect(engine)
    with engine.connect() as connection:
        pending = connection.execute(text(f"SELECT COUNT(*) FROM item WHERE {_pending(sql)}"), params).scalar_one()
        scheduled = {
            as_date(day): number
            for day, number in connection.execute(
                text(
                    f"""SELECT {sql.greatest('due_day', ':today')} AS day, COUNT(*) FROM item
                    WHERE {REVIEWED} AND due_day < :interview GROUP BY 1"""
                ),
                params,
            )
        }
        unseen = connection.execute(
            text(f"SELECT COUNT(*) FROM item WHERE {REVIEWED} AND last_review_day IS NULL")
        ).scalar_one()
        first_seen, seen_again = connection.execute(
            text(
                """SELECT COUNT(DISTINCT CASE WHEN review.last_day_before IS NULL THEN item.id END),
                    COUNT(DISTINCT CASE WHEN review.last_day_before IS NOT NULL THEN item.id END)
                FROM review JOIN item ON item.id = review.item_id
                WHERE review.study_day = :today AND review.counted
                    AND item.retired = FALSE AND item.suspended = FALSE AND item.kind != 'coding'"""
            ),
            params,
        ).one()
    if seen_again:
        scheduled[today] = scheduled.get(today, 0) + seen_again
    return PlanCounts(pending=pending, scheduled=scheduled, unseen=unseen + first_seen)


def brought_forward(engine: Engine, today: date, interview: date, window_start: date, limit: int) -> list[Candidate]:
    """The first `limit` items to bring forward (earliest due first, then content order), due today."""
    if limit <= 0:
        return []
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                f"""SELECT id, block, kind, siblings FROM item WHERE {_pending(dialect(engine))}
                ORDER BY due_day, position LIMIT :limit"""
            ),
            {"interview": interview, "window_start": window_start, "limit": limit},
        ).all()
    return [Candidate(row.id, row.block, today, row.kind, row.siblings) for row in rows]


def brought_forward_blocks(engine: Engine, interview: date, window_start: date, limit: int) -> dict[str, int]:
    """Per block, how many of the first `limit` items to bring forward there are (for home counts)."""
    if limit <= 0:
        return {}
    with engine.connect() as connection:
        return dict(
            connection.execute(
                text(
                    f"""SELECT block, COUNT(*) FROM (SELECT block FROM item WHERE {_pending(dialect(engine))}
                    ORDER BY due_day, position LIMIT :limit) AS forward GROUP BY block"""
                ),
                {"interview": interview, "window_start": window_start, "limit": limit},
            ).all()
        )
