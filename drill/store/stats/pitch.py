"""The pitch ladder over the period: per rung (30 s, 2 min, 5 min), the time taken against it.

A pitch review's duration is the pitch timer's reading when the answer was revealed; it is in
time when within the target and not under half of it (drill/schedule/pitch_time.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from drill.content.vocabulary import PITCH_SECONDS
from drill.schedule.pitch_time import SHORTEST_SHARE
from drill.store.stats.rounding import rounded
from drill.store.stats.scope import Scope
from drill.store.stats.sql import item_block, ratio, rows


@dataclass(frozen=True)
class Rung:
    target_s: int
    items: int
    reviews: int
    mean_s: float | None
    median_s: float | None
    within: int  # reviews in time: within the target, and at least half of it (pitch_time.py)
    last_s: float | None

    @property
    def within_rate(self) -> float | None:
        return ratio(self.within, self.reviews)

    def as_json(self) -> dict[str, Any]:
        return {"target_s": self.target_s, "items": self.items, "reviews": self.reviews,
                "mean_s": rounded(self.mean_s, 1), "median_s": rounded(self.median_s, 1),
                "within_target": self.within, "within_rate": rounded(self.within_rate),
                "last_s": rounded(self.last_s, 1)}


def pitch_ladder(connection: Connection, scope: Scope) -> tuple[Rung, ...]:
    items = dict(
        rows(
            connection,
            f"""SELECT target_seconds, COUNT(*) FROM item WHERE kind = 'pitch' AND retired = FALSE AND suspended = FALSE
            AND target_seconds IS NOT NULL {item_block(scope)} GROUP BY target_seconds""",
            scope,
        )
    )
    found = {
        row.target: row
        for row in rows(
            connection,
            f"""WITH p AS (
                    SELECT item.target_seconds AS target, CAST(review.duration_ms AS DOUBLE PRECISION) / 1000 AS s,
                        review.id AS id
                    FROM item CROSS JOIN review  -- the pitch items first, then their reviews by index
                    WHERE review.item_id = item.id AND item.kind = 'pitch' AND item.target_seconds IS NOT NULL {item_block(scope)}
                        AND review.study_day >= :first_day AND review.study_day <= :today),
                ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY target ORDER BY s) AS rank,
                    COUNT(*) OVER (PARTITION BY target) AS n,
                    ROW_NUMBER() OVER (PARTITION BY target ORDER BY id DESC) AS recency FROM p)
            SELECT target, COUNT(*) AS reviews, AVG(s) AS mean_s,
                AVG(CASE WHEN rank IN ((n + 1) / 2, (n + 2) / 2) THEN s END) AS median_s,
                COUNT(*) FILTER (WHERE s <= target AND s >= :shortest * target) AS within, MAX(CASE WHEN recency = 1 THEN s END) AS last_s
            FROM ranked GROUP BY target""",
            scope,
            shortest=SHORTEST_SHARE,
        )
    }
    targets = sorted(set(PITCH_SECONDS) | set(items) | set(found))
    return tuple(
        Rung(target, items.get(target, 0), found[target].reviews, found[target].mean_s, found[target].median_s,
             found[target].within, found[target].last_s)
        if target in found else Rung(target, items.get(target, 0), 0, None, None, 0, None)
        for target in targets
    )
