"""Readiness per block: items, seen, mature (interval ≥ 21 days), due, and predicted recall.

Predicted recall uses the usual SM-2 proxy R = 0.9^(days since the last review / interval),
taken on the target day (the interview date while it is ahead, else today) and averaged over
the items seen at least once. The weakest topics are those with the lowest mean recall.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import Connection

from drill.content.models import BLOCKS
from drill.stats.scope import Scope
from drill.stats.sql import item_block, rows

RECALL = """CASE WHEN last_review_day IS NOT NULL THEN
    pow(0.9, MAX(julianday(:target) - julianday(last_review_day), 0) / MAX(interval, 1)) END"""

ITEMS = f"""SELECT block, topic, last_review_day IS NOT NULL AS seen, interval >= :mature AS mature,
    kind != 'coding' AND due_day <= :today AS due, {RECALL} AS recall
    FROM item WHERE retired = 0 AND suspended = 0"""

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
    per_block = {
        row.block: row
        for row in rows(
            connection,
            f"""SELECT block, COUNT(*) AS items, SUM(seen) AS seen, SUM(mature) AS mature,
                COALESCE(SUM(due), 0) AS due, AVG(recall) AS recall
            FROM ({ITEMS} {item_block(scope)}) GROUP BY block""",
            scope,
        )
    }
    topics = rows(
        connection,
        f"""SELECT block, topic, items, seen, recall, lane, overall FROM (
                SELECT block, topic, items, seen, recall,
                    ROW_NUMBER() OVER (PARTITION BY block ORDER BY recall, topic) AS lane,
                    ROW_NUMBER() OVER (ORDER BY recall, block, topic) AS overall
                FROM (SELECT block, topic, COUNT(*) AS items, SUM(seen) AS seen, AVG(recall) AS recall
                      FROM ({ITEMS} {item_block(scope)}) GROUP BY block, topic HAVING SUM(seen) > 0))
            WHERE lane <= :per_block OR overall <= :overall ORDER BY overall""",
        scope,
        per_block=WEAKEST_PER_BLOCK,
        overall=WEAKEST,
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
