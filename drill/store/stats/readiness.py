"""Readiness per block: items, seen, mature (interval ≥ 21 days), due, and predicted recall.

Predicted recall comes from the scheduler in use, taken on the target day (the interview date
while it is ahead, else today) and averaged over the items seen at least once:
- FSRS: its retrievability R = (1 + factor · t / S) ** -decay from the item's stored stability S,
  t the days since the last review;
- SM-2, which predicts nothing itself: the usual proxy R = 0.9^(t / interval).
The weakest topics are those with the lowest mean recall.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Connection

from drill.content.vocabulary import BLOCKS
from drill.stats.scope import Scope
from drill.store.dialect import Dialect, dialect
from drill.store.stats.sql import item_block, rows


def _recall(sql: Dialect, scheduler: str) -> str:
    elapsed = sql.greatest(sql.days_between(":target", "last_review_day"), "0")
    if scheduler == "fsrs":
        return f"pow(1 + :fsrs_factor * {elapsed} / fsrs_stability, -:fsrs_decay)"
    return f"pow(0.9, {elapsed} / {sql.greatest('interval', '1')})"


def _items(sql: Dialect, scope: Scope) -> str:
    return f"""SELECT block, topic, last_review_day IS NOT NULL AS seen, interval >= :mature AS mature,
        kind != 'coding' AND due_day <= :today AS due,
        CASE WHEN last_review_day IS NOT NULL THEN {_recall(sql, scope.scheduler)} END AS recall
        FROM item WHERE retired = FALSE AND suspended = FALSE {item_block(scope)}"""


def _curve(scope: Scope) -> dict[str, float]:
    if scope.scheduler != "fsrs":
        return {}
    from drill.schedule.fsrs_model import forgetting_curve

    factor, decay = forgetting_curve()
    return {"fsrs_factor": factor, "fsrs_decay": decay}

WEAKEST_PER_BLOCK = 3
WEAKEST = 5


@dataclass(frozen=True)
class TopicRecall:
    block: str
    topic: str
    items: int
    seen: int
    recall: float


@dataclass(frozen=True)
class BlockReadiness:
    block: str
    items: int
    seen: int
    mature: int
    due: int
    recall: float | None  # mean over seen items; None when none is seen
    weakest: tuple[TopicRecall, ...]


@dataclass(frozen=True)
class Readiness:
    target_day: date
    blocks: tuple[BlockReadiness, ...]
    weakest: tuple[TopicRecall, ...]

    @property
    def items(self) -> int:
        return sum(block.items for block in self.blocks)

    @property
    def seen(self) -> int:
        return sum(block.seen for block in self.blocks)

    @property
    def mature(self) -> int:
        return sum(block.mature for block in self.blocks)

    @property
    def recall(self) -> float | None:
        """Mean predicted recall over every seen item (the blocks' means weighted by items seen)."""
        seen = self.seen
        if not seen:
            return None
        return sum((block.recall or 0.0) * block.seen for block in self.blocks) / seen


def readiness(connection: Connection, scope: Scope) -> Readiness:
    curve = _curve(scope)
    items = _items(dialect(connection), scope)
    per_block = {
        row.block: row
        for row in rows(
            connection,
            f"""SELECT block, COUNT(*) AS items, COUNT(*) FILTER (WHERE seen) AS seen,
                COUNT(*) FILTER (WHERE mature) AS mature, COUNT(*) FILTER (WHERE due) AS due, AVG(recall) AS recall
            FROM ({items}) AS items GROUP BY block""",
            scope,
            **curve,
        )
    }
    topics = rows(
        connection,
        f"""SELECT block, topic, items, seen, recall, lane, overall FROM (
                SELECT block, topic, items, seen, recall,
                    ROW_NUMBER() OVER (PARTITION BY block ORDER BY recall, topic) AS lane,
                    ROW_NUMBER() OVER (ORDER BY recall, block, topic) AS overall
                FROM (SELECT block, topic, COUNT(*) AS items, COUNT(*) FILTER (WHERE seen) AS seen, AVG(recall) AS recall
                      FROM ({items}) AS items GROUP BY block, topic HAVING COUNT(*) FILTER (WHERE seen) > 0) AS topics
                ) AS ranked
            WHERE lane <= :per_block OR overall <= :overall ORDER BY overall""",
        scope,
        per_block=WEAKEST_PER_BLOCK,
        overall=WEAKEST,
        **curve,
    )
    found = [(row, TopicRecall(row.block, row.topic, row.items, row.seen, row.recall)) for row in topics]
    blocks = []
    for block in (scope.block,) if scope.block else BLOCKS:
        row = per_block.get(block)
        weakest = tuple(topic for source, topic in found if topic.block == block and source.lane <= WEAKEST_PER_BLOCK)
        if row is None:
            blocks.append(BlockReadiness(block, 0, 0, 0, 0, None, ()))
        else:
            blocks.append(BlockReadiness(block, row.items, row.seen, row.mature, row.due, row.recall, weakest))
    overall = tuple(topic for source, topic in found if source.overall <= WEAKEST)
    return Readiness(scope.target_day, tuple(blocks), overall)
