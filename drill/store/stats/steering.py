"""Steering figures: the period's reviews given in cram sessions (which kept or moved schedules),
and the leeches now (drill.schedule.leech), within the scope's block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from drill.schedule.leech import Standing
from drill.store.leeches import leeches as current_leeches
from drill.store.stats.scope import Scope
from drill.store.stats.sql import rows


@dataclass(frozen=True)
class Steering:
    cram_reviews: int  # over the period
    cram_rescheduled: int  # of them, those that moved a schedule
    leeches: tuple[Standing, ...]  # every leech now, most lapses first

    def as_json(self) -> dict[str, Any]:
        return {
            "cram_reviews": self.cram_reviews,
            "cram_rescheduled": self.cram_rescheduled,
            "leeches": [{"id": leech.item_id, "kind": leech.kind, "topic": leech.topic, "lapses": leech.lapses,
                         "failed_run": leech.failed_run, "why": leech.describe()} for leech in self.leeches],
        }


def steering(connection: Connection, scope: Scope) -> Steering:
    in_scope = None if scope.block is None else {
        item_id for (item_id,) in rows(connection, "SELECT id FROM item WHERE block = :block", scope)}
    # The period's cram reviews through ix_review_cram (they are few), the block filtered here: with
    # the block in SQL, SQLite would read every review of the block's items instead.
    cram = [bool(counted) for item_id, counted in rows(
        connection, "SELECT item_id, counted FROM review WHERE cram = TRUE AND study_day >= :first_day "
        "AND study_day <= :today", scope) if in_scope is None or item_id in in_scope]
    leeches = sorted(
        (standing for standing in current_leeches(connection, scope.leech_threshold)
         if in_scope is None or standing.item_id in in_scope),
        key=lambda standing: (-standing.lapses, -standing.failed_run, standing.item_id),
    )
    return Steering(len(cram), sum(cram), tuple(leeches))
