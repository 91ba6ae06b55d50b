"""The pitch ladder over the period: per rung (30 s, 2 min, 5 min), the time taken against it.

A pitch review's duration is the pitch timer's reading when the answer was revealed; it is in
time when within the target and not under half of it (drill/schedule/pitch_time.py).
"""

from __future__ import annotations

from pydantic import Field, computed_field
from sqlalchemy import Connection, Integer, column, func, select

from drill.content.vocabulary import PITCH_SECONDS
from drill.read_model import ReadModel
from drill.schedule.pitch_time import SHORTEST_SHARE
from drill.store.queries import ACTIVE
from drill.store.rounding import Rounded, Tenths
from drill.store.stats.scope import Scope
from drill.store.stats.sql import counts, item_block, measures, of_block, ratio, rows
from drill.store.tables import item


class Rung(ReadModel):
    KEYS = ("target_s", "items", "reviews", "mean_s", "median_s", "within_target", "within_rate", "last_s")

    target_s: int
    items: int
    reviews: int
    mean_s: Tenths
    median_s: Tenths
    # reviews in time: within the target, and at least half of it (pitch_time.py)
    within: int = Field(serialization_alias="within_target")
    last_s: Tenths

    @computed_field
    @property
    def within_rate(self) -> Rounded:
        return ratio(self.within, self.reviews)


def pitch_ladder(connection: Connection, scope: Scope) -> tuple[Rung, ...]:
    items: dict[int, int] = dict(
        connection.execute(
            select(item.c.target_seconds, func.count())
            .where(item.c.kind == "pitch", ACTIVE, item.c.target_seconds.is_not(None), *of_block(scope))
            .group_by(item.c.target_seconds)
        ).all()
    )
    found = {
        row.target: row
        for row in rows(
            connection,
            f"""WITH p AS (
                    SELECT item.target_seconds AS target, CAST(review.duration_ms AS DOUBLE PRECISION) / 1000 AS s,
                        review.id AS id
                    FROM item CROSS JOIN review  -- the pitch items first, then their reviews by index
                    WHERE review.item_id = item.id AND item.kind = 'pitch' AND item.target_seconds IS NOT NULL
                        {item_block(scope)}
                        AND review.study_day >= :first_day AND review.study_day <= :today),
                ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY target ORDER BY s) AS rank,
                    COUNT(*) OVER (PARTITION BY target) AS n,
                    ROW_NUMBER() OVER (PARTITION BY target ORDER BY id DESC) AS recency FROM p)
            SELECT target, COUNT(*) AS reviews, AVG(s) AS mean_s,
                AVG(CASE WHEN rank IN ((n + 1) / 2, (n + 2) / 2) THEN s END) AS median_s,
                COUNT(*) FILTER (WHERE s <= target AND s >= :shortest * target) AS within,
                MAX(CASE WHEN recency = 1 THEN s END) AS last_s
            FROM ranked GROUP BY target""",
            scope,
            (
                column("target", Integer),
                *counts("reviews"),
                *measures("mean_s", "median_s"),
                *counts("within"),
                *measures("last_s"),
            ),
            shortest=SHORTEST_SHARE,
        )
    }
    targets = sorted(set(PITCH_SECONDS) | set(items) | set(found))
    return tuple(
        Rung(
            target_s=target,
            items=items.get(target, 0),
            reviews=found[target].reviews,
            mean_s=found[target].mean_s,
            median_s=found[target].median_s,
            within=found[target].within,
            last_s=found[target].last_s,
        )
        if target in found
        else Rung(
            target_s=target, items=items.get(target, 0), reviews=0, mean_s=None, median_s=None, within=0, last_s=None
        )
        for target in targets
    )
