"""Steering figures: the period's reviews given in cram sessions (which kept or moved schedules),
and the leeches now (drill.schedule.leech), within the scope's block."""

from __future__ import annotations

from datetime import date

from pydantic import field_serializer
from sqlalchemy import Connection, select

from drill.read_model import ReadModel
from drill.schedule.leech import Standing
from drill.store.leeches import leeches as current_leeches
from drill.store.stats.scope import Scope
from drill.store.tables import CRAM, item, review


class Steering(ReadModel):
    cram_reviews: int  # over the period
    cram_rescheduled: int  # of them, those that moved a schedule
    leeches: tuple[Standing, ...]  # every leech now, most lapses first

    @field_serializer("leeches")
    def _leeches(self, leeches: tuple[Standing, ...]) -> list[dict[str, str | int]]:
        """Each leech by id, with why it is one."""
        return [
            {
                "id": leech.item_id,
                "kind": leech.kind,
                "topic": leech.topic,
                "lapses": leech.lapses,
                "failed_run": leech.failed_run,
                "why": leech.describe(),
            }
            for leech in leeches
        ]


def steering(connection: Connection, scope: Scope) -> Steering:
    in_scope = (
        None
        if scope.block is None
        else set(connection.execute(select(item.c.id).where(item.c.block == scope.block)).scalars())
    )
    # The period's cram reviews through ix_review_cram (they are few), the block filtered here: with
    # the block in SQL, SQLite would read every review of the block's items instead.
    period = select(review.c.item_id, review.c.counted).where(
        CRAM, review.c.study_day >= (scope.first_day or date.min), review.c.study_day <= scope.today
    )
    cram = [bool(counted) for item_id, counted in connection.execute(period) if in_scope is None or item_id in in_scope]
    leeches = sorted(
        (
            standing
            for standing in current_leeches(connection, scope.leech_threshold)
            if in_scope is None or standing.item_id in in_scope
        ),
        key=lambda standing: (-standing.lapses, -standing.failed_run, standing.item_id),
    )
    return Steering(cram_reviews=len(cram), cram_rescheduled=sum(cram), leeches=tuple(leeches))
