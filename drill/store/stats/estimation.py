"""Estimation: per problem family over the period (attempts, mean score, median |log10 error|,
the commonest slips, the recent trend), the whole over time, and the mock-round history.

Attempts come from daily reviews and mock rounds alike. Medians are taken in SQL (the middle
one or two of each family's ordered errors); unparsable answers have no error and are left out
of the medians but count as attempts with their score.
"""

from __future__ import annotations

import json
import math
from datetime import date, datetime, timedelta

from pydantic import Field, field_serializer
from pydantic.dataclasses import dataclass
from sqlalchemy import Connection, func, select

from drill.days import study_day
from drill.estimate.items import family_id
from drill.read_model import ReadModel
from drill.store.dialect import as_iso, dialect
from drill.store.estimates import RoundRow
from drill.store.rounding import Rounded
from drill.store.stats.scope import Scope, day_start, moment_text
from drill.store.stats.sql import counts, measures, of_block, rows
from drill.store.tables import estimate_attempt, item, mock_round

RECENT = 5  # the trend compares the last 5 attempts with the ones before
SLIPS_PER_FAMILY = 3
SLIPS = 5
ROUNDS = 20
TREND_POINTS = 60  # at most this many buckets over time

# Attempts in scope, for reading through the covering indexes of estimate_attempt (item first).
IN_SCOPE = """item_id IN (SELECT id FROM item WHERE kind = 'estimate' {block})
    AND attempted_at >= :since AND attempted_at < :until"""


def _in_scope(scope: Scope) -> str:
    return IN_SCOPE.format(block="" if scope.block is None else "AND block = :block")


# The estimation figures are pydantic dataclasses: validated and written out like the read models
# around them, and built field by field in order as the stats screen's tests build them.
@dataclass(frozen=True)
class SlipCount:
    slip: str
    count: int


@dataclass(frozen=True)
class FamilyStats:
    family: str
    block: str
    topic: str
    attempts: int
    mean_score: Rounded
    median_log_error: Rounded
    last_score: Rounded
    recent_score: Rounded  # mean of the last 5
    trend: Rounded  # recent_score minus the mean of the attempts before them (None: no earlier ones)
    slips: tuple[SlipCount, ...]


@dataclass(frozen=True)
class TrendPoint:
    start: date  # the bucket's first study day
    attempts: int
    mean_score: Rounded
    median_log_error: Rounded


@dataclass(frozen=True)
class Estimation:
    attempts: int
    mean_score: Rounded
    median_log_error: Rounded
    families: tuple[FamilyStats, ...]  # weakest (lowest mean score) first
    slips: tuple[SlipCount, ...]
    bucket_days: int = Field(exclude=True)  # written with the trend
    trend: tuple[TrendPoint, ...] = ()

    @field_serializer("trend")
    def _buckets_and_points(self, trend: tuple[TrendPoint, ...]) -> dict[str, object]:
        return {"bucket_days": self.bucket_days, "points": list(trend)}


class MockHistory(ReadModel):
    count: int
    finished: int
    mean_score: Rounded
    best_score: Rounded
    rounds: tuple[RoundRow, ...]  # newest first, at most 20


# Medians: rank each group's errors (unparsable answers have none and are left out), then take
# the mean of the middle one (odd count) or two (even count).
MIDDLE = "rank IN ((n + 1) / 2, (n + 2) / 2)"


def _families(connection: Connection, scope: Scope) -> list[FamilyStats]:
    where = _in_scope(scope)
    found = rows(
        connection,
        f"""WITH f AS (SELECT item_id, COUNT(*) AS attempts, AVG(score) AS mean_score, COUNT(log_error) AS n
                FROM estimate_attempt WHERE {where} GROUP BY item_id),
            ranked AS (SELECT item_id, log_error,
                    ROW_NUMBER() OVER (PARTITION BY item_id ORDER BY log_error) AS rank
                FROM estimate_attempt WHERE {where} AND log_error IS NOT NULL),
            m AS (SELECT item_id, AVG(log_error) AS median FROM ranked JOIN f USING (item_id)
                WHERE {MIDDLE} GROUP BY item_id)
        SELECT f.item_id, item.block, item.topic, f.attempts, f.mean_score, m.median,
            {dialect(connection).least("f.attempts", ":recent")} AS recent_n,
            (SELECT score FROM estimate_attempt AS e WHERE e.item_id = f.item_id
                AND e.attempted_at >= :since AND e.attempted_at < :until
                ORDER BY e.attempted_at DESC, e.id DESC LIMIT 1) AS last_score,
            (SELECT AVG(score) FROM (SELECT score FROM estimate_attempt AS e WHERE e.item_id = f.item_id
                AND e.attempted_at >= :since AND e.attempted_at < :until
                ORDER BY e.attempted_at DESC, e.id DESC LIMIT :recent) AS recent) AS recent_score
        FROM f JOIN item ON item.id = f.item_id LEFT JOIN m USING (item_id)
        ORDER BY f.mean_score, f.item_id""",
        scope,
        (
            estimate_attempt.c.item_id,
            item.c.block,
            item.c.topic,
            *counts("attempts"),
            *measures("mean_score", "median"),
            *counts("recent_n"),
            *measures("last_score", "recent_score"),
        ),
        recent=RECENT,
    )
    slips: dict[str, list[SlipCount]] = {}
    for row in rows(
        connection,
        f"""SELECT item_id, slip, count FROM (
                SELECT item_id, slip, COUNT(*) AS count,
                    ROW_NUMBER() OVER (PARTITION BY item_id ORDER BY COUNT(*) DESC, slip) AS lane
                FROM estimate_attempt WHERE {where} AND slip IS NOT NULL GROUP BY item_id, slip) AS ranked
            WHERE lane <= :per_family ORDER BY item_id, lane""",
        scope,
        (estimate_attempt.c.item_id, estimate_attempt.c.slip, *counts("count")),
        per_family=SLIPS_PER_FAMILY,
    ):
        slips.setdefault(row.item_id, []).append(SlipCount(row.slip, row.count))
    families = []
    for row in found:
        earlier = row.attempts - row.recent_n
        trend = None
        if earlier > 0:  # the mean of the earlier attempts, from the totals
            earlier_mean = (row.mean_score * row.attempts - row.recent_score * row.recent_n) / earlier
            trend = row.recent_score - earlier_mean
        families.append(
            FamilyStats(
                family_id(row.item_id),
                row.block,
                row.topic,
                row.attempts,
                row.mean_score,
                row.median,
                row.last_score,
                row.recent_score,
                trend,
                tuple(slips.get(row.item_id, ())),
            )
        )
    return families


def _buckets(connection: Connection, scope: Scope) -> tuple[int, list[tuple[date, str, str]]]:
    """Study-day buckets over the period: (first day, first moment, end moment) each."""
    first = scope.first_day
    if first is None:
        earliest = connection.execute(
            select(func.min(estimate_attempt.c.attempted_at))
            .join_from(item, estimate_attempt, estimate_attempt.c.item_id == item.c.id)
            .where(item.c.kind == "estimate", *of_block(scope))
        ).scalar()
        if earliest is None:
            return 1, []
        first = min(study_day(datetime.fromisoformat(as_iso(earliest)), scope.rollover_hour), scope.today)
    span = (scope.today - first).days + 1
    size = 1 if span <= 31 else max(7, math.ceil(span / TREND_POINTS))
    count = math.ceil(span / size)
    start = scope.today - timedelta(days=count * size - 1)
    buckets = []
    for n in range(count):
        day = start + timedelta(days=n * size)
        begins = max(day, first)  # the oldest bucket may be cut short by the period's start
        buckets.append(
            (
                begins,
                moment_text(day_start(begins, scope.rollover_hour)),
                moment_text(day_start(day + timedelta(days=size), scope.rollover_hour)),
            )
        )
    return size, buckets


def _trend(connection: Connection, scope: Scope) -> tuple[int, tuple[TrendPoint, ...]]:
    size, buckets = _buckets(connection, scope)
    if not buckets:
        return size, ()
    bounds = json.dumps([[lo, hi] for _, lo, hi in buckets])
    block = "" if scope.block is None else "AND item.block = :block"
    found = {
        row.bucket: row
        for row in rows(
            connection,
            f"""WITH b AS ({dialect(connection).json_ranges(":bounds")}),
                families AS MATERIALIZED (SELECT id FROM item WHERE item.kind = 'estimate' {block}),
                x AS (SELECT b.bucket, a.score, a.log_error
                      FROM b CROSS JOIN families CROSS JOIN estimate_attempt AS a
                      WHERE a.item_id = families.id
                        AND a.attempted_at >= b.lo AND a.attempted_at < b.hi),
                g AS (SELECT bucket, COUNT(*) AS attempts, AVG(score) AS mean_score, COUNT(log_error) AS n
                      FROM x GROUP BY bucket),
                ranked AS (SELECT bucket, log_error, ROW_NUMBER() OVER (PARTITION BY bucket ORDER BY log_error) AS rank
                      FROM x WHERE log_error IS NOT NULL)
            SELECT g.bucket, g.attempts, g.mean_score, AVG(ranked.log_error) AS median
            FROM g LEFT JOIN ranked ON ranked.bucket = g.bucket AND {MIDDLE}
            GROUP BY g.bucket, g.attempts, g.mean_score""",
            scope,
            (*counts("bucket", "attempts"), *measures("mean_score", "median")),
            bounds=bounds,
        )
    }
    points = []
    for index, (day, _, _) in enumerate(buckets):
        row = found.get(index)
        points.append(
            TrendPoint(day, row.attempts, row.mean_score, row.median) if row else TrendPoint(day, 0, None, None)
        )
    return size, tuple(points)


def estimation(connection: Connection, scope: Scope) -> Estimation:
    where = _in_scope(scope)
    total = rows(
        connection,
        f"""WITH ranked AS (SELECT log_error, ROW_NUMBER() OVER (ORDER BY log_error) AS rank,
                COUNT(*) OVER () AS n FROM estimate_attempt WHERE {where} AND log_error IS NOT NULL)
        SELECT (SELECT COUNT(*) FROM estimate_attempt WHERE {where}),
            (SELECT AVG(score) FROM estimate_attempt WHERE {where}),
            (SELECT AVG(log_error) FROM ranked WHERE {MIDDLE})""",
        scope,
        (*counts("attempts"), *measures("mean_score", "median")),
    )[0]
    slips = tuple(
        SlipCount(row.slip, row.count)
        for row in rows(
            connection,
            f"""SELECT slip, COUNT(*) AS count FROM estimate_attempt WHERE {where} AND slip IS NOT NULL
            GROUP BY slip ORDER BY count DESC, slip LIMIT :limit""",
            scope,
            (estimate_attempt.c.slip, *counts("count")),
            limit=SLIPS,
        )
    )
    size, trend = _trend(connection, scope)
    return Estimation(total[0], total[1], total[2], tuple(_families(connection, scope)), slips, size, trend)


def mock_rounds(connection: Connection, scope: Scope) -> MockHistory:
    """Rounds started in the period (with a block filter: rounds that drew from that block)."""
    block = "" if scope.block is None else f"AND {dialect(connection).json_has('r.blocks', ':block')}"
    chosen = f"SELECT * FROM mock_round AS r WHERE started_at >= :since AND started_at < :until {block}"
    summary = rows(
        connection,
        f"""SELECT COUNT(*), COUNT(finished_at) FILTER (WHERE NOT abandoned),
            AVG(score) FILTER (WHERE NOT abandoned AND finished_at IS NOT NULL),
            MAX(score) FILTER (WHERE NOT abandoned AND finished_at IS NOT NULL) FROM ({chosen}) AS chosen""",
        scope,
        (*counts("count", "finished"), *measures("mean_score", "best_score")),
    )[0]
    found = rows(
        connection,
        f"""SELECT r.id, r.started_at, r.finished_at, r.problems, r.time_limit_s, r.score, r.abandoned,
            COUNT(a.id) AS answered, COALESCE(SUM(a.seconds), 0) AS seconds
        FROM (SELECT * FROM ({chosen}) AS chosen ORDER BY started_at DESC, id DESC LIMIT :limit) AS r
        LEFT JOIN estimate_attempt AS a ON a.mock_round_id = r.id
        GROUP BY r.id, r.started_at, r.finished_at, r.problems, r.time_limit_s, r.score, r.abandoned
        ORDER BY r.started_at DESC, r.id DESC""",
        scope,
        (
            mock_round.c.id,
            mock_round.c.started_at,
            mock_round.c.finished_at,
            mock_round.c.problems,
            mock_round.c.time_limit_s,
            mock_round.c.score,
            mock_round.c.abandoned,
            *counts("answered"),
            *measures("seconds"),
        ),
        limit=ROUNDS,
    )
    rounds = tuple(RoundRow.of(row) for row in found)
    return MockHistory(
        count=summary[0], finished=summary[1], mean_score=summary[2], best_score=summary[3], rounds=rounds
    )
