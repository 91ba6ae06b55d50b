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
from drill.store.queries import ACTIVE
from drill.store.rounding import Rounded, Tenths
from drill.store.stats.scope import Scope
from drill.store.stats.sql import counts, item_block, measures, of_block, ratio, rows
from drill.store.tables import coding_attempt, item


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
    found = rows(
        connection,
        f"""WITH attempt AS (
                SELECT c.item_id, c.workspace, MAX(c.finished_at) AS at, COUNT(*) AS runs,
                    MAX(CASE WHEN c.status = 'pass' THEN 1 ELSE 0 END) AS passed,
                    MIN(CASE WHEN c.status = 'pass' THEN c.seconds END) AS pass_s,
                    MAX(c.seconds) AS seconds, MAX(c.hints_used) AS hints
                FROM item JOIN coding_attempt AS c ON c.item_id = item.id
                WHERE item.kind = 'coding' AND c.finished_at >= :since AND c.finished_at < :until {item_block(scope)}
                GROUP BY c.item_id, c.workspace),
            ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY item_id ORDER BY at DESC, workspace DESC) AS recency
                       FROM attempt)
        SELECT ranked.item_id, item.block, item.topic, item.target_seconds, COUNT(*) AS attempts,
            CAST(SUM(runs) AS INTEGER) AS runs, SUM(passed) AS passed, MIN(pass_s) AS best,
            MAX(CASE WHEN recency = 1 THEN COALESCE(pass_s, seconds) END) AS last_s,
            MAX(CASE WHEN recency = 1 THEN passed END) AS last_passed, SUM(hints) AS hints
        FROM ranked JOIN item ON item.id = ranked.item_id
        GROUP BY ranked.item_id, item.block, item.topic, item.target_seconds ORDER BY ranked.item_id""",
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
