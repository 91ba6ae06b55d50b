"""Readiness per block: items, seen, mature (interval ≥ 21 days), due, predicted recall, and
the expected share of all items recalled.

Predicted recall comes from the memory model in use (its `curve()`, evaluated in SQL), taken on the
target day (the interview date while it is ahead, else today), t the days since the last review:
- FSRS: its retrievability R = (1 + factor · t / S) ** -decay from the item's stored stability S;
- SM-2, which predicts nothing itself: the usual proxy R = 0.9^(t / interval).
`recall` is its mean over the items seen at least once; `expected` its sum over the seen items
divided by all the items, an unseen item counting 0: the share of the block you would get right
on the target day. Three items reviewed yesterday out of forty give recall near 100 % but
expected under 3/40. The weakest topics are those with the lowest expected share, so a topic
never touched (expected 0) is among them. How far the predictions can be trusted is measured
against the last 30 days' outcomes in calibration.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection

from drill.content.vocabulary import BLOCKS
from drill.store.dialect import Dialect, dialect
from drill.store.stats.calibration import Calibration, calibration
from drill.store.stats.rounding import floored, rounded
from drill.store.stats.scope import Scope
from drill.schedule import memory
from drill.store.stats.sql import ITEM_MEMORY, item_block, predicted_recall, rows


def _items(sql: Dialect, scope: Scope) -> tuple[str, dict[str, float]]:
    """Each item in scope with its predicted recall on the target day, and the curve's parameters."""
    curve = memory.get(scope.scheduler).curve()
    elapsed = sql.greatest(sql.days_between(":target", "last_review_day"), "0")
    recall, params = predicted_recall(sql, curve, elapsed, ITEM_MEMORY[curve.memory])
    return f"""SELECT block, topic, last_review_day IS NOT NULL AS seen, interval >= :mature AS mature,
        kind != 'coding' AND due_day <= :today AS due,
        CASE WHEN last_review_day IS NOT NULL THEN {recall} END AS recall
        FROM item WHERE retired = FALSE AND suspended = FALSE {item_block(scope)}""", params

WEAKEST_PER_BLOCK = 3
WEAKEST = 5


def _share(total: float | None, items: int) -> float | None:
    """Summed recall over all the items: unseen ones count 0 (None when there are no items)."""
    return None if not items else float(total or 0.0) / items


@dataclass(frozen=True)
class TopicRecall:
    block: str
    topic: str
    items: int
    seen: int
    recall: float | None  # mean over seen items; None when none is seen
    expected: float = 0.0  # summed recall over all the topic's items

    def as_json(self) -> dict[str, Any]:
        """Its figures (the block it belongs to is said by whoever lists it)."""
        return {"topic": self.topic, "seen": self.seen, "items": self.items, "recall": rounded(self.recall),
                "expected": floored(self.expected)}


@dataclass(frozen=True)
class BlockReadiness:
    block: str
    items: int
    seen: int
    mature: int
    due: int
    recall: float | None  # mean over seen items; None when none is seen
    weakest: tuple[TopicRecall, ...]
    expected: float | None = None  # summed recall over all items (unseen count 0); None when there are none

    @property
    def coverage(self) -> float | None:
        """The share of the block's items seen at least once."""
        return None if not self.items else self.seen / self.items

    def as_json(self) -> dict[str, Any]:
        return {"items": self.items, "seen": self.seen, "mature": self.mature, "due": self.due,
                "recall": rounded(self.recall), "expected": floored(self.expected), "coverage": floored(self.coverage),
                "weakest": [topic.as_json() for topic in self.weakest]}


@dataclass(frozen=True)
class Readiness:
    target_day: date
    blocks: tuple[BlockReadiness, ...]
    weakest: tuple[TopicRecall, ...]
    calibration: Calibration  # predictions against outcomes, last 30 days (calibration.py)

    @property
    def recall_model(self) -> str:
        """The memory model whose predicted recall this is ("sm2", "fsrs"), calibrated with the same."""
        return self.calibration.model

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

    @property
    def expected(self) -> float | None:
        """The share of every item in scope expected to be recalled (the blocks' shares weighted by items)."""
        return _share(sum((block.expected or 0.0) * block.items for block in self.blocks), self.items)

    @property
    def coverage(self) -> float | None:
        return None if not self.items else self.seen / self.items

    def as_json(self) -> dict[str, Any]:
        return {
            "target_day": self.target_day.isoformat(),
            "recall_model": self.recall_model,
            "items": self.items,
            "seen": self.seen,
            "mature": self.mature,
            "recall": rounded(self.recall),
            "expected": floored(self.expected),
            "coverage": floored(self.coverage),
            "by_block": {block.block: block.as_json() for block in self.blocks},
            "weakest_topics": [{"block": topic.block, **topic.as_json()} for topic in self.weakest],
            "calibration": self.calibration.as_json(),
        }


def _weakness(topic: TopicRecall) -> tuple[float, int, str, str]:
    """Lowest expected share first (rounded, so SQLite's and PostgreSQL's last bits tie alike); on a
    tie the larger topic, then block and topic in code-point order (the same on every server)."""
    return round(topic.expected, 9), -topic.items, topic.block, topic.topic


def _float(value: object) -> float | None:
    return None if value is None else float(value)  # PostgreSQL may return a Decimal


def readiness(connection: Connection, scope: Scope) -> Readiness:
    items, curve = _items(dialect(connection), scope)
    per_block = {
        row.block: row
        for row in rows(
            connection,
            f"""SELECT block, COUNT(*) AS items, COUNT(*) FILTER (WHERE seen) AS seen,
                COUNT(*) FILTER (WHERE mature) AS mature, COUNT(*) FILTER (WHERE due) AS due, AVG(recall) AS recall,
                SUM(recall) AS recall_sum
            FROM ({items}) AS items GROUP BY block""",
            scope,
            **curve,
        )
    }
    topics = sorted(
        (
            TopicRecall(row.block, row.topic, row.items, row.seen, _float(row.recall),
                        _share(row.recall_sum, row.items) or 0.0)
            for row in rows(
                connection,
                f"""SELECT block, topic, COUNT(*) AS items, COUNT(*) FILTER (WHERE seen) AS seen, AVG(recall) AS recall,
                    SUM(recall) AS recall_sum
                FROM ({items}) AS items GROUP BY block, topic""",
                scope,
                **curve,
            )
        ),
        key=_weakness,
    )
    blocks = []
    for block in (scope.block,) if scope.block else BLOCKS:
        row = per_block.get(block)
        weakest = tuple(topic for topic in topics if topic.block == block)[:WEAKEST_PER_BLOCK]
        if row is None:
            blocks.append(BlockReadiness(block, 0, 0, 0, 0, None, ()))
        else:
            blocks.append(BlockReadiness(block, row.items, row.seen, row.mature, row.due, _float(row.recall), weakest,
                                         _share(row.recall_sum, row.items)))
    overall = tuple(topics[:WEAKEST])
    return Readiness(scope.target_day, tuple(blocks), overall, calibration(connection, scope))
