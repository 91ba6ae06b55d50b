"""Coding drills over the period: attempts, pass rate, best and last time against the budget, hints.

An attempt is one workspace (one start of the drill); it passed when any of its test runs
passed. Its time is the elapsed time at its passing run (else at its last run), and its hints
the most it had shown (hints only ever grow within an attempt).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from drill.coding.items import drill_id
from drill.store.stats.rounding import rounded
from drill.store.stats.scope import Scope
from drill.store.stats.sql import item_block, ratio, rows


@dataclass(frozen=True)
class DrillStats:
    drill: str
    block: str
    topic: str
    budget_s: int | None
    attempts: int
    runs: int
    passed: int
    best_s: float | None  # fastest passing attempt
    last_s: float  # the latest attempt's time
    last_passed: bool
    hints: int  # hints shown, over all attempts

    @property
    def pass_rate(self) -> float | None:
        return ratio(self.passed, self.attempts)

    def as_json(self) -> dict[str, Any]:
        return {"drill": self.drill, "block": self.block, "topic": self.topic, "budget_s": self.budget_s,
                "attempts": self.attempts, "runs": self.runs, "passed": self.passed,
                "pass_rate": rounded(self.pass_rate), "best_s": rounded(self.best_s, 1),
                "last_s": rounded(self.last_s, 1), "last_passed": self.last_passed, "hints": self.hints}


@dataclass(frozen=True)
class Coding:
    drills: tuple[DrillStats, ...]  # by drill id
    available: int  # active drills in scope

    @property
    def attempts(self) -> int:
        return sum(drill.attempts for drill in self.drills)

    @property
    def passed(self) -> int:
        return sum(drill.passed for drill in self.drills)

    @property
    def pass_rate(self) -> float | None:
        return ratio(self.passed, self.attempts)

    @property
    def hints(self) -> int:
        return sum(drill.hints for drill in self.drills)

    def as_json(self) -> dict[str, Any]:
        return {"available": self.available, "attempts": self.attempts, "passed": self.passed,
                "pass_rate": rounded(self.pass_rate), "hints": self.hints,
                "drills": [drill.as_json() for drill in self.drills]}


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
    )
    available = rows(
        connection,
        f"SELECT COUNT(*) FROM item WHERE kind = 'coding' AND retired = FALSE AND suspended = FALSE {item_block(scope)}",
        scope,
    )[0][0]
    return Coding(
        tuple(
            DrillStats(drill_id(row.item_id), row.block, row.topic, row.target_seconds, row.attempts, row.runs,
                       row.passed, row.best, row.last_s, bool(row.last_passed), row.hints)
            for row in found
        ),
        available,
    )
