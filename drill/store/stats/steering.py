"""Steering figures: the period's reviews given in cram sessions (which kept or moved schedules),
and the leeches now (drill.schedule.leech), within the scope's block. Its JSON carries how many
leeches there are and the TOP_LEECHES worst of them (`drill list --leech --json` lists them all)."""

from __future__ import annotations

from datetime import date

from pydantic import computed_field, field_serializer
from sqlalchemy import Connection, select

from drill.read_model import ReadModel
from drill.schedule.leech import Standing
from drill.store.leeches import leeches as current_leeches
from drill.store.stats.scope import Scope
from drill.store.tables import CRAM, item, review

TOP_LEECHES = 20  # the leeches `drill stats --json` names


class Steering(ReadModel):
    KEYS = ("cram_reviews", "cram_rescheduled", "leech_count", "leeches")

    cram_reviews: int  # over the period
    cram_rescheduled: int  # of them, those that moved a schedule
    leeches: tuple[Standing, ...]  # every leech now, most lapses first (the JSON names the first TOP_LEECHES)

    @computed_field
    @property
    def leech_count(self) -> int:
        return len(self.leeches)

    @field_serializer("leeches")
    def _leeches(self, leeches: tuple[Standing, ...]) -> list[dict[str, str | int]]:
        """The TOP_LEECHES worst leeches by id, with why each is one."""
        return [
            {
                "id": leech.item_id,
                "kind": leech.kind,
                "topic": leech.topic,
                "lapses": leech.lapses,
                "failed_run": leech.failed_run,
                "why": leech.describe(),
            }
            for leech in leeches[:TOP_LEECHES]
        ]


def steering(connection: Connection, scope: Scope, kept: Steering | None = None) -> Steering:
    """The period's cram reviews, and the leeches: `kept`'s when given (another period's figures of
    the same day and block: the leeches do not depend on the period, nor are they checked again)."""
    # The period's cram reviews through ix_review_cram (they are few), each item's block by its key:
    # with the block in SQL, SQLite would read every review of the block's items instead.
    period = (
        select(review.c.counted, item.c.block)
        .join_from(review, item, item.c.id == review.c.item_id)
        .where(CRAM, review.c.study_day >= (scope.first_day or date.min), review.c.study_day <= scope.today)
    )
    cram = [bool(counted) for counted, block in connection.execute(period) if scope.block in (None, block)]
    if kept is not None:
        return kept.model_copy(update={"cram_reviews": len(cram), "cram_rescheduled": sum(cram)})
    in_scope = (
        None
        if scope.block is None
        else set(connection.execute(select(item.c.id).where(item.c.block == scope.block)).scalars())
    )
    leeches = tuple(
        sorted(
            (
                standing
                for standing in current_leeches(connection, scope.leech_threshold)
                if in_scope is None or standing.item_id in in_scope
            ),
            key=lambda standing: (-standing.lapses, -standing.failed_run, standing.item_id),
        )
    )
    return Steering(cram_reviews=len(cram), cram_rescheduled=sum(cram), leeches=leeches)
