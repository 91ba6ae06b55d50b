"""The review counters (item.lapse_count and table review_day, revision 0014) moved for many items at
once. The review table's triggers keep them row by row; a bulk write (a history import's merge)
pauses them inside its own transaction and moves the counters of the items it writes set-based,
reading each item's reviews through its covering index:

    with counted_in_bulk(connection, ids):
        ... insert, rewrite or delete reviews of `ids` only ...

The upserts are SQL text: SQLite and PostgreSQL spell ON CONFLICT alike, SQLAlchemy's Core only per
dialect.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, bindparam, delete, insert, text

from drill.store.stats.scope import MATURE_DAYS
from drill.store.tables import review_day, store_fact

PAUSED = "review counters paused"  # store_fact key: while it is set the review table's triggers do nothing
_COUNTED = "review.counted"
_MATURE = f"review.interval_before >= {MATURE_DAYS}"
_YOUNG = f"review.interval_before BETWEEN 1 AND {MATURE_DAYS - 1}"
_PASSED = "review.button > 1"
_SHARES = {  # review_day's sums over the reviews of some items, in the order of its columns
    "reviews": "COUNT(*)",
    "duration_ms": "SUM(review.duration_ms)",
    "mature": f"SUM(CAST({_COUNTED} AND {_MATURE} AS INTEGER))",
    "mature_passed": f"SUM(CAST({_COUNTED} AND {_MATURE} AND {_PASSED} AS INTEGER))",
    "young": f"SUM(CAST({_COUNTED} AND {_YOUNG} AS INTEGER))",
    "young_passed": f"SUM(CAST({_COUNTED} AND {_YOUNG} AND {_PASSED} AS INTEGER))",
}
# Add (:sign 1) or take away (-1) the items' reviews from their days, item by item (CROSS JOIN:
# SQLite keeps that order) through the covering index ix_review_stats_item.
MOVE_DAYS = text(
    f"""INSERT INTO review_day (study_day, block, {", ".join(_SHARES)})
    SELECT review.study_day, item.block, {", ".join(f":sign * {share}" for share in _SHARES.values())}
    FROM item CROSS JOIN review WHERE review.item_id = item.id AND item.id IN :ids
    GROUP BY review.study_day, item.block
    ON CONFLICT (study_day, block) DO UPDATE SET
    {", ".join(f"{name} = review_day.{name} + excluded.{name}" for name in _SHARES)}"""
).bindparams(bindparam("ids", expanding=True))
EMPTY_DAYS = delete(review_day).where(review_day.c.reviews == 0)
# tables.LAPSE as ix_review_lapse reads it
RECOUNT_LAPSES = text(
    """UPDATE item SET lapse_count = (SELECT COUNT(*) FROM review WHERE review.item_id = item.id
        AND counted = TRUE AND button = 1 AND reps_before > 0)
    WHERE item.id IN :ids"""
).bindparams(bindparam("ids", expanding=True))


@contextmanager
def counted_in_bulk(connection: Connection, ids: list[str]) -> Iterator[None]:
    """Inside the caller's write transaction: the triggers paused while the body writes reviews of
    `ids` (and of no other item), the items' counters moved before and after it. An error in the
    body rolls the caller's transaction back, the pause with it."""
    connection.execute(insert(store_fact).values(key=PAUSED, value="yes"))
    connection.execute(MOVE_DAYS, {"sign": -1, "ids": ids})
    yield
    connection.execute(MOVE_DAYS, {"sign": 1, "ids": ids})
    connection.execute(EMPTY_DAYS)
    connection.execute(RECOUNT_LAPSES, {"ids": ids})
    connection.execute(delete(store_fact).where(store_fact.c.key == PAUSED))
