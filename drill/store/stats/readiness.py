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
against the last 30 days' outcomes in calibration.py, and each mock interview's predicted score
against the score it came to in interviews.py (the mock check).
"""

from __future__ import annotations

from datetime import date
from typing import Any, SupportsFloat

from pydantic import Field, computed_field, field_serializer
from sqlalchemy import Connection

from drill.content.vocabulary import BLOCKS
from drill.read_model import ReadModel
from drill.schedule import memory
from drill.store.dialect import Dialect, dialect
from drill.store.rounding import Floored, Rounded
from drill.store.stats.calibration import Calibration, calibration
from drill.store.stats.interviews import MockCheck, mock_check
from drill.store.stats.scope import Scope
from drill.store.stats.sql import ITEM_MEMORY, counts, item_block, measures, predicted_recall, rows
from drill.store.tables import item


def _items(sql: Dialect, scope: Scope) -> tuple[str, dict[str, float]]:
    """Each item in scope with its predicted recall on the target day, and the curve's parameters."""
    curve = memory.get(scope.scheduler).curve()
    elapsed = sql.greatest(sql.days_between(":target", "last_review_day"), "0")
    recall, params = predicted_recall(sql, curve, elapsed, ITEM_MEMORY[curve.memory])
    return (
        f"""SELECT block, topic, last_review_day IS NOT NULL AS seen, interval >= :mature AS mature,
        kind != 'coding' AND due_day <= :today AS due,
        CASE WHEN last_review_day IS NOT NULL THEN {recall} END AS recall
        FROM item WHERE retired = FALSE AND suspended = FALSE {item_block(scope)}""",
        params,
    )


WEAKEST_PER_BLOCK = 3
WEAKEST = 5


def _share(total: float | None, items: int) -> float | None:
    """Summed recall over all the items: unseen ones count 0 (None when there are no items)."""
    return None if not items else float(total or 0.0) / items


class TopicRecall(ReadModel):
    """Its JSON: its figures (the block it belongs to is said by whoever lists it)."""

    KEYS = ("topic", "seen", "items", "recall", "expected")

    block: str = Field(exclude=True)
    topic: str
    items: int
    seen: int
    recall: Rounded  # mean over seen items; None when none is seen
    expected: Floored = 0.0  # summed recall over all the topic's items


class BlockReadiness(ReadModel):
    KEYS = ("items", "seen", "mature", "due", "recall", "expected", "coverage", "weakest")

    block: str = Field(exclude=True)
    items: int
    seen: int
    mature: int
    due: int
    recall: Rounded  # mean over seen items; None when none is seen
    weakest: tuple[TopicRecall, ...]
    expected: Floored = None  # summed recall over all items (unseen count 0); None when there are none

    @computed_field
    @property
    def coverage(self) -> Floored:
        """The share of the block's items seen at least once."""
        return None if not self.items else self.seen / self.items


class Readiness(ReadModel):
    KEYS = (
        "target_day",
        "recall_model",
        "items",
        "seen",
        "mature",
        "recall",
        "expected",
        "coverage",
        "by_block",
        "weakest_topics",
        "calibration",
        "mock_check",
    )

    target_day: date
    blocks: tuple[BlockReadiness, ...] = Field(serialization_alias="by_block")
    weakest: tuple[TopicRecall, ...] = Field(serialization_alias="weakest_topics")
    calibration: Calibration  # predictions against outcomes, last 30 days (calibration.py)
    mock_check: MockCheck  # predicted interview scores against the scores they came to (interviews.py)

    @field_serializer("blocks")
    def _by_block(self, blocks: tuple[BlockReadiness, ...]) -> dict[str, BlockReadiness]:
        return {block.block: block for block in blocks}

    @field_serializer("weakest")
    def _with_their_block(self, weakest: tuple[TopicRecall, ...]) -> list[dict[str, Any]]:
        return [{"block": topic.block, **topic.model_dump()} for topic in weakest]

    @computed_field
    @property
    def recall_model(self) -> str:
        """The memory model whose predicted recall this is ("sm2", "fsrs"), calibrated with the same."""
        return self.calibration.model

    @computed_field
    @property
    def items(self) -> int:
        return sum(block.items for block in self.blocks)

    @computed_field
    @property
    def seen(self) -> int:
        return sum(block.seen for block in self.blocks)

    @computed_field
    @property
    def mature(self) -> int:
        return sum(block.mature for block in self.blocks)

    @computed_field
    @property
    def recall(self) -> Rounded:
        """Mean predicted recall over every seen item (the blocks' means weighted by items seen)."""
        seen = self.seen
        if not seen:
            return None
        return sum((block.recall or 0.0) * block.seen for block in self.blocks) / seen

    @computed_field
    @property
    def expected(self) -> Floored:
        """The share of every item in scope expected to be recalled (the blocks' shares weighted by items)."""
        return _share(sum((block.expected or 0.0) * block.items for block in self.blocks), self.items)

    @computed_field
    @property
    def coverage(self) -> Floored:
        return None if not self.items else self.seen / self.items


def _weakness(topic: TopicRecall) -> tuple[float, int, str, str]:
    """Lowest expected share first (rounded, so SQLite's and PostgreSQL's last bits tie alike); on a
    tie the larger topic, then block and topic in code-point order (the same on every server)."""
    assert topic.expected is not None  # readiness() gives every topic its share, 0.0 when none is seen
    return round(topic.expected, 9), -topic.items, topic.block, topic.topic


def _float(value: SupportsFloat | None) -> float | None:
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
            (item.c.block, *counts("items", "seen", "mature", "due"), *measures("recall", "recall_sum")),
            **curve,
        )
    }
    topics = sorted(
        (
            TopicRecall(
                block=row.block,
                topic=row.topic,
                items=row.items,
                seen=row.seen,
                recall=_float(row.recall),
                expected=_share(row.recall_sum, row.items) or 0.0,
            )
            for row in rows(
                connection,
                f"""SELECT block, topic, COUNT(*) AS items, COUNT(*) FILTER (WHERE seen) AS seen, AVG(recall) AS recall,
                    SUM(recall) AS recall_sum
                FROM ({items}) AS items GROUP BY block, topic""",
                scope,
                (item.c.block, item.c.topic, *counts("items", "seen"), *measures("recall", "recall_sum")),
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
            blocks.append(BlockReadiness(block=block, items=0, seen=0, mature=0, due=0, recall=None, weakest=()))
        else:
            blocks.append(
                BlockReadiness(
                    block=block,
                    items=row.items,
                    seen=row.seen,
                    mature=row.mature,
                    due=row.due,
                    recall=_float(row.recall),
                    weakest=weakest,
                    expected=_share(row.recall_sum, row.items),
                )
            )
    return Readiness(
        target_day=scope.target_day,
        blocks=tuple(blocks),
        weakest=tuple(topics[:WEAKEST]),
        calibration=calibration(connection, scope),
        mock_check=mock_check(connection, scope.rollover_hour),
    )
