"""Coding drills over the period: attempts, pass rate, best and last time against the budget, hints.

An attempt is one workspace (one start of the drill); it passed when any of its test runs
passed. Its time is the elapsed time at its passing run (else at its last run), and its hints
the most it had shown (hints only ever grow within an attempt).
"""

from __future__ import annotations

from pydantic import computed_field
from sqlalchemy import Connection, func, select

from drill.coding.drills import drill_id
from drill.read_model import ReadModel
from drill.store.dialect import dialect
from drill.store.queries import ACTIVE
from drill.store.rounding import Rounded, Tenths
from drill.store.stats.scope import Scope
from drill.store.stats.sql import counts, item_block, measures, of_block, ratio, rows
from drill.store.tables import coding_attempt, item

# The runs of a drill's latest attempt (`latest`: its item and workspace, found through ix_coding_time),
# through ix_coding_stats.
LATEST = """WHERE c.item_id = latest.item_id AND c.workspace = latest.workspace
    AND c.finished_at >= :since AND c.finished_at < :until"""


class DrillStats(ReadModel):
    KEYS = (
        "drill",
        "block",
        "topic",
        "budget_s",
        "attempts",
        "runs",
        "passed",
        "pass_rate",
        "best_s",
        "last_s",
        "last_passed",
        "hints",
    )

    drill: str
    block: str
    topic: str
    budget_s: int | None
    attempts: int
    runs: int
    passed: int
    best_s: Tenths  # fastest passing attempt
    last_s: Tenths  # the latest attempt's time
    last_passed: bool
    hints: int  # hints shown, over all attempts

    @computed_field
    @property
    def pass_rate(self) -> Rounded:
        return ratio(self.passed, self.attempts)


class Coding(ReadModel):
    KEYS = ("available", "attempts", "passed", "pass_rate", "hints", "drills")

    drills: tuple[DrillStats, ...]  # by drill id
    available: int  # active drills in scope

    @computed_field
    @property
    def attempts(self) -> int:
        return sum(drill.attempts for drill in self.drills)

    @computed_field
    @property
    def passed(self) -> int:
        return sum(drill.passed for drill in self.drills)

    @computed_field
    @property
    def pass_rate(self) -> Rounded:
        return ratio(self.passed, self.attempts)

    @computed_field
    @property
    def hints(self) -> int:
        return sum(drill.hints for drill in self.drills)


def coding(connection: Connection, scope: Scope) -> Coding:
    """Each drill's runs in the period, grouped into attempts in the order of ix_coding_stats (no
    sort); the latest attempt is the one with the latest run (ties: the last workspace by name)."""
    sql = dialect(connection)
    found = rows(
        connection,
        f"""WITH attempt AS (
                SELECT c.item_id, c.workspace, COUNT(*) AS runs,
                    MAX(CASE WHEN c.status = 'pass' THEN 1 ELSE 0 END) AS passed,
                    MIN(CASE WHEN c.status = 'pass' THEN c.seconds END) AS pass_s,
                    MAX(c.seconds) AS seconds, MAX(c.hints_used) AS hints
                FROM coding_attempt AS c
                WHERE c.item_id IN (SELECT id FROM item WHERE kind = 'coding' {item_block(scope)})
                    AND {sql.unindexed("c.finished_at")} >= :since AND {sql.unindexed("c.finished_at")} < :until
                GROUP BY c.item_id, c.workspace),
            drill AS (SELECT item_id, COUNT(*) AS attempts, CAST(SUM(runs) AS INTEGER) AS runs,
                    SUM(passed) AS passed, MIN(pass_s) AS best, SUM(hints) AS hints FROM attempt GROUP BY item_id),
            latest AS (SELECT drill.*, (SELECT c.workspace FROM coding_attempt AS c WHERE c.item_id = drill.item_id
                    AND c.finished_at >= :since AND c.finished_at < :until
                    ORDER BY c.finished_at DESC, c.workspace DESC LIMIT 1) AS workspace FROM drill),
            last AS (SELECT latest.*,
                (SELECT MAX(CASE WHEN c.status = 'pass' THEN 1 ELSE 0 END) FROM coding_attempt AS c {LATEST})
                    AS last_passed,
                (SELECT COALESCE(MIN(CASE WHEN c.status = 'pass' THEN c.seconds END), MAX(c.seconds))
                    FROM coding_attempt AS c {LATEST}) AS last_s
                FROM latest)
        SELECT last.item_id, item.block, item.topic, item.target_seconds, last.attempts, last.runs, last.passed,
            last.best, last.last_s, last.last_passed, last.hints
        FROM last JOIN item ON item.id = last.item_id ORDER BY last.item_id""",
        scope,
        (
            coding_attempt.c.item_id,
            item.c.block,
            item.c.topic,
            item.c.target_seconds,
            *counts("attempts", "runs", "passed"),
            *measures("best", "last_s"),
            *counts("last_passed", "hints"),
        ),
    )
    available = connection.execute(
        select(func.count()).where(item.c.kind == "coding", ACTIVE, *of_block(scope))
    ).scalar_one()
    return Coding(
        drills=tuple(
            DrillStats(
                drill=drill_id(row.item_id),
                block=row.block,
                topic=row.topic,
                budget_s=row.target_seconds,
                attempts=row.attempts,
                runs=row.runs,
                passed=row.passed,
                best_s=row.best,
                last_s=row.last_s,
                last_passed=bool(row.last_passed),
                hints=row.hints,
            )
            for row in found
        ),
        available=available,
    )
