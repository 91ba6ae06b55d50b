"""Estimation: per problem family over the period (attempts, mean score, median |log10 error|,
the commonest slips, the recent trend), the whole over time, and the mock-round history.

Attempts come from daily reviews and mock rounds alike. Medians are taken in SQL (the middle
one or two of each family's ordered errors); unparsable answers have no error and are left out
of the medians but count as attempts with their score.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import NamedTuple

from pydantic import Field, field_serializer
from pydantic.dataclasses import dataclass
from sqlalchemy import Connection, select

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
SLIPS_BY_TIME_DAYS = 31  # a period this short finds its slips by time (few), a longer one reads them in order

# Attempts in scope, for reading through the covering indexes of estimate_attempt (item first).
IN_SCOPE = """item_id IN (SELECT id FROM item WHERE kind = 'estimate' {block})
    AND attempted_at >= :since AND attempted_at < :until"""


def _in_scope(scope: Scope) -> str:
    return IN_SCOPE.format(block="" if scope.block is None else "AND block = :block")


class _Chosen(NamedTuple):
    """The families with attempts in the period, as a table `families` (id) that a statement
    starting with `sql` reads, the ids bound by `params`: the attempts in scope are theirs in the period."""

    sql: str
    params: dict[str, object]


def _chosen(item_ids: list[str]) -> _Chosen:
    names = [f"item_{n}" for n in range(len(item_ids))]
    values = ", ".join(f"(:{name})" for name in names)
    return _Chosen(f"WITH families(id) AS (VALUES {values}) ", dict(zip(names, item_ids, strict=True)))


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


# A median: the mean of the middle one (odd count) or two (even count) of a group's errors in order,
# by LIMIT and OFFSET: read through an index in order of error, or found through another and sorted
# (`order` keeps SQLite off the error's index then). Unparsable answers have no error and are left out.
MEDIAN = """SELECT {key} AS k, AVG(log_error) AS median FROM (SELECT log_error FROM estimate_attempt
    WHERE log_error IS NOT NULL AND {where} ORDER BY {order} LIMIT :take_{key} OFFSET :skip_{key}) AS m{key}"""


class _Group(NamedTuple):
    """A group of attempts whose median error is wanted: the SQL condition that chooses them, its
    parameters, and how many have an error."""

    where: str
    params: dict[str, object]
    errors: int
    in_order: bool  # read in order of error (through an index led by it), else sorted


def _medians(connection: Connection, scope: Scope, chosen: _Chosen, groups: list[_Group]) -> list[float | None]:
    """Each group's median error, in one statement (None for a group without errors)."""
    branches, params = [], dict(chosen.params)
    for key, group in enumerate(groups):
        if group.errors:
            order = "log_error" if group.in_order else dialect(connection).unindexed("log_error")
            branches.append(MEDIAN.format(key=key, where=group.where, order=order))
            params |= group.params | {f"take_{key}": 2 - group.errors % 2, f"skip_{key}": (group.errors - 1) // 2}
    found: dict[int, float] = {}
    if branches:
        found = dict(
            rows(
                connection,
                chosen.sql + " UNION ALL ".join(branches),
                scope,
                (*counts("k"), *measures("median")),
                **params,
            )
        )
    return [found.get(key) for key in range(len(groups))]


class _Family(NamedTuple):
    """A family's attempts over the period, before its median."""

    item_id: str
    block: str
    topic: str
    attempts: int
    score_sum: float
    mean_score: float
    errors: int
    last_score: float
    recent_score: float
    recent_n: int

    @property
    def trend(self) -> float | None:
        """The recent mean less the mean of the attempts before them, from the totals (None: no earlier ones)."""
        earlier = self.attempts - self.recent_n
        if earlier <= 0:
            return None
        return self.recent_score - (self.mean_score * self.attempts - self.recent_score * self.recent_n) / earlier


def _family_rows(connection: Connection, scope: Scope) -> list[_Family]:
    """Per family with attempts in the period, weakest first: through ix_estimate_stats, the last
    ones through ix_estimate_item."""
    found = rows(
        connection,
        f"""WITH f AS (SELECT item_id, COUNT(*) AS attempts, SUM(score) AS score_sum, AVG(score) AS mean_score,
                COUNT(log_error) AS n
                FROM estimate_attempt WHERE {_in_scope(scope)} GROUP BY item_id)
        SELECT f.item_id, item.block, item.topic, f.attempts, f.score_sum, f.mean_score, f.n,
            (SELECT score FROM estimate_attempt AS e WHERE e.item_id = f.item_id
                AND e.attempted_at >= :since AND e.attempted_at < :until
                ORDER BY e.attempted_at DESC, e.id DESC LIMIT 1) AS last_score,
            (SELECT AVG(score) FROM (SELECT score FROM estimate_attempt AS e WHERE e.item_id = f.item_id
                AND e.attempted_at >= :since AND e.attempted_at < :until
                ORDER BY e.attempted_at DESC, e.id DESC LIMIT :recent) AS recent) AS recent_score,
            {dialect(connection).least("f.attempts", ":recent")} AS recent_n
        FROM f JOIN item ON item.id = f.item_id
        ORDER BY f.mean_score, f.item_id""",
        scope,
        (
            estimate_attempt.c.item_id,
            item.c.block,
            item.c.topic,
            *counts("attempts"),
            *measures("score_sum", "mean_score"),
            *counts("n"),
            *measures("last_score", "recent_score"),
            *counts("recent_n"),
        ),
        recent=RECENT,
    )
    return [_Family(*row) for row in found]


def _slips(connection: Connection, scope: Scope, chosen: _Chosen, period: str) -> dict[str, dict[str, int]]:
    """Per family, how often each slip came up in the period: over a month or less through
    ix_estimate_stats, the period's attempts by time; over longer, through ix_estimate_slip in its order."""
    slips: dict[str, dict[str, int]] = {}
    short = scope.period is not None and scope.period <= SLIPS_BY_TIME_DAYS
    slip_column = dialect(connection).unindexed("slip") if short else "slip"
    for item_id, slip, count in rows(
        connection,
        f"""{chosen.sql}SELECT item_id, slip, COUNT(*) AS count FROM estimate_attempt
            WHERE item_id IN (SELECT id FROM families) AND {period} AND {slip_column} IS NOT NULL
            GROUP BY item_id, {slip_column}""",
        scope,
        (estimate_attempt.c.item_id, estimate_attempt.c.slip, *counts("count")),
        **chosen.params,
    ):
        slips.setdefault(item_id, {})[slip] = count
    return slips


def _commonest(counted: Mapping[str, int], limit: int) -> tuple[SlipCount, ...]:
    """The `limit` commonest slips, the commonest first (ties by slip)."""
    ranked = sorted(counted.items(), key=lambda pair: (-pair[1], pair[0]))
    return tuple(SlipCount(slip, count) for slip, count in ranked[:limit])


def _buckets(connection: Connection, scope: Scope) -> tuple[int, list[tuple[date, str, str]]]:
    """Study-day buckets over the period: (first day, first moment, end moment) each."""
    first = scope.first_day
    if first is None:
        earliest = connection.execute(
            select(estimate_attempt.c.attempted_at)
            .where(
                dialect(connection)
                .unindexed_column(estimate_attempt.c.item_id)
                .in_(select(item.c.id).where(item.c.kind == "estimate", *of_block(scope)).scalar_subquery())
            )
            .order_by(estimate_attempt.c.attempted_at)
            .limit(1)
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


def estimation(connection: Connection, scope: Scope) -> Estimation:
    """The period's figures: per family through its indexes, the whole from the families' sums, the
    trend per bucket through ix_estimate_time, every median in one statement."""
    sql = dialect(connection)
    families = _family_rows(connection, scope)
    size, buckets = _buckets(connection, scope)
    if not families:
        return Estimation(0, None, None, (), (), size, tuple(TrendPoint(day, 0, None, None) for day, _, _ in buckets))
    # The whole and the buckets are read through the indexes led by the error and the time, a family
    # through its own. All time reads the errors in order; a bounded period finds its attempts by
    # time and sorts them (few, where reading in order would pass over every attempt before it).
    of_families = f"{sql.unindexed('item_id')} IN (SELECT id FROM families)"
    chosen = _chosen([family.item_id for family in families])
    trend = _bucket_rows(connection, scope, buckets, chosen, of_families)
    in_order = scope.period is None
    at = sql.unindexed("attempted_at") if in_order else "attempted_at"
    period = f"{at} >= :since AND {at} < :until"
    attempts = sum(family.attempts for family in families)
    errors = sum(family.errors for family in families)
    medians = _medians(
        connection,
        scope,
        chosen,
        [
            _Group(f"{of_families} AND {period}", {}, errors, in_order),
            *(
                _Group(f"item_id = :family_{n} AND {period}", {f"family_{n}": family.item_id}, family.errors, in_order)
                for n, family in enumerate(families)
            ),
            *(
                _Group(
                    f"attempted_at >= :lo_{n} AND attempted_at < :hi_{n} AND {of_families}",
                    {f"lo_{n}": lo, f"hi_{n}": hi},
                    point.n,
                    in_order=False,
                )
                for n, (point, (_, lo, hi)) in enumerate(zip(trend, buckets, strict=True))
            ),
        ],
    )
    slips = _slips(connection, scope, chosen, period)
    every: Counter[str] = Counter()
    for counted in slips.values():
        every.update(counted)
    return Estimation(
        attempts,
        sum(family.score_sum for family in families) / attempts,
        medians[0],
        tuple(
            FamilyStats(
                family_id(family.item_id),
                family.block,
                family.topic,
                family.attempts,
                family.mean_score,
                median,
                family.last_score,
                family.recent_score,
                family.trend,
                _commonest(slips.get(family.item_id, {}), SLIPS_PER_FAMILY),
            )
            for family, median in zip(families, medians[1 : len(families) + 1], strict=True)
        ),
        _commonest(every, SLIPS),
        size,
        tuple(
            TrendPoint(point.day, point.attempts, point.mean_score, median)
            if point.attempts
            else TrendPoint(point.day, 0, None, None)
            for point, median in zip(trend, medians[len(families) + 1 :], strict=True)
        ),
    )


class _Bucket(NamedTuple):
    """A trend bucket's attempts, before its median."""

    day: date
    attempts: int
    mean_score: float | None
    n: int  # attempts with an error


def _bucket_rows(
    connection: Connection, scope: Scope, buckets: list[tuple[date, str, str]], chosen: _Chosen, of_families: str
) -> list[_Bucket]:
    """Each bucket's attempts (`of_families` chooses the items), through ix_estimate_time: a range
    of it per bucket."""
    if not buckets:
        return []
    bounds = {f"{end}_{n}": moment for n, (_, lo, hi) in enumerate(buckets) for end, moment in (("lo", lo), ("hi", hi))}
    found = rows(
        connection,
        chosen.sql
        + " UNION ALL ".join(
            f"""SELECT {n} AS k, COUNT(*) AS attempts, AVG(score) AS mean_score, COUNT(log_error) AS n
            FROM estimate_attempt WHERE attempted_at >= :lo_{n} AND attempted_at < :hi_{n} AND {of_families}"""
            for n in range(len(buckets))
        ),
        scope,
        (*counts("k", "attempts"), *measures("mean_score"), *counts("n")),
        **bounds,
        **chosen.params,
    )
    by_bucket = {row.k: row for row in found}
    return [
        _Bucket(day, by_bucket[n].attempts, by_bucket[n].mean_score, by_bucket[n].n)
        for n, (day, _, _) in enumerate(buckets)
    ]


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
