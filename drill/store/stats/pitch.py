"""The pitch ladder over the period: per rung (30 s, 2 min, 5 min), the time taken against it.

A pitch review's duration is the pitch timer's reading when the answer was revealed; it is in
time when within the target and not under half of it (drill/schedule/pitch_time.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import Field, computed_field
from sqlalchemy import Connection, Integer, column, select

from drill.content.vocabulary import PITCH_SECONDS
from drill.read_model import ReadModel
from drill.schedule.pitch_time import SHORTEST_SHARE
from drill.store.queries import ACTIVE
from drill.store.rounding import Rounded, Tenths
from drill.store.stats.scope import Scope
from drill.store.stats.sql import counts, measures, of_block, ratio, rows
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


# A rung's reviews in the period: those of its pitch items (bound by id), through ix_review_stats_item.
RUNG = """SELECT CAST(duration_ms AS DOUBLE PRECISION) / 1000 AS s, id FROM review
    WHERE item_id IN ({ids}) AND study_day >= :first_day AND study_day <= :today"""


def _rungs(connection: Connection, scope: Scope) -> tuple[dict[int, int], dict[int, list[str]]]:
    """The active pitch items per target, and every pitch item's id per target."""
    active: dict[int, int] = {}
    ids: dict[int, list[str]] = {}
    for item_id, target, is_active in connection.execute(
        select(item.c.id, item.c.target_seconds, ACTIVE).where(
            item.c.kind == "pitch", item.c.target_seconds.is_not(None), *of_block(scope)
        )
    ):
        ids.setdefault(target, []).append(item_id)
        active[target] = active.get(target, 0) + bool(is_active)
    return {target: count for target, count in active.items() if count}, ids


class _Rung(NamedTuple):
    """A rung's reviews in the period, before its median and latest time."""

    target: int
    reviews: int
    mean_s: float | None
    within: int
    last_id: int | None


def pitch_ladder(connection: Connection, scope: Scope) -> tuple[Rung, ...]:
    """Each rung's reviews: the counts and means in one statement, the medians and latest times in
    another (each rung's times in order, the middle one or two: no window over every review)."""
    items, ids = _rungs(connection, scope)
    params: dict[str, object] = {"shortest": SHORTEST_SHARE}
    sources = {}
    for k, target in enumerate(sorted(ids)):
        names = [f"pitch_{k}_{n}" for n in range(len(ids[target]))]
        params |= dict(zip(names, ids[target], strict=True)) | {f"target_{k}": target}
        sources[target] = (k, RUNG.format(ids=", ".join(f":{name}" for name in names)))
    found = {
        rung.target: rung
        for rung in _union(
            connection,
            scope,
            [
                f"""SELECT {target} AS target, COUNT(*) AS reviews, AVG(s) AS mean_s,
                    COUNT(*) FILTER (WHERE s <= :target_{k} AND s >= :shortest * :target_{k}) AS within,
                    MAX(id) AS last_id FROM ({source}) AS rung_{k}"""
                for target, (k, source) in sources.items()
            ],
            (column("target", Integer), *counts("reviews"), *measures("mean_s"), *counts("within", "last_id")),
            params,
        )
        if rung.reviews
    }
    middles = {}
    for target, rung in found.items():
        k, source = sources[target]
        middles[target] = f"""SELECT {target} AS target, AVG(s) AS median_s,
            (SELECT CAST(duration_ms AS DOUBLE PRECISION) / 1000 FROM review WHERE id = :last_{k}) AS last_s
            FROM ({source} ORDER BY s LIMIT :take_{k} OFFSET :skip_{k}) AS middle_{k}"""
        params |= {f"last_{k}": rung.last_id, f"take_{k}": 2 - rung.reviews % 2, f"skip_{k}": (rung.reviews - 1) // 2}
    medians = {
        row.target: row
        for row in _union(
            connection,
            scope,
            list(middles.values()),
            (column("target", Integer), *measures("median_s", "last_s")),
            params,
        )
    }
    return tuple(
        Rung(
            target_s=target,
            items=items.get(target, 0),
            reviews=found[target].reviews,
            mean_s=found[target].mean_s,
            median_s=medians[target].median_s,
            within=found[target].within,
            last_s=medians[target].last_s,
        )
        if target in found
        else Rung(
            target_s=target, items=items.get(target, 0), reviews=0, mean_s=None, median_s=None, within=0, last_s=None
        )
        for target in sorted(set(PITCH_SECONDS) | set(items) | set(found))
    )


def _union(
    connection: Connection, scope: Scope, branches: list[str], columns: Sequence[Any], params: dict[str, object]
) -> list[Any]:
    """The rows of the branches' UNION ALL (none without branches)."""
    return list(rows(connection, " UNION ALL ".join(branches), scope, columns, **params)) if branches else []
