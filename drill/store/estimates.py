"""Estimation writes and reads: attempts (in reviews or mock rounds) and the rounds themselves."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, text

from drill.estimate.attempt import AttemptRow
from drill.schedule.records import Grade, Regrade
from drill.store.dialect import as_text
from drill.store.transactions import writing
from drill.store.writes import insert_review

INSERT_ATTEMPT = text(
    """INSERT INTO estimate_attempt (item_id, review_id, mock_round_id, attempted_at, params, answer,
        parsed, truth, unit, score, log_error, slip, error, seconds)
    VALUES (:item_id, :review_id, :mock_round_id, :attempted_at, :params, :answer,
        :parsed, :truth, :unit, :score, :log_error, :slip, :error, :seconds)"""
)


@dataclass(frozen=True)
class RoundRow:
    """One mock round in the history list."""

    id: int
    started_at: str  # the stored UTC moment, ISO
    problems: int
    answered: int
    time_limit_s: int
    seconds: float
    score: float | None
    abandoned: bool


SAME_ATTEMPT = text("SELECT 1 FROM estimate_attempt WHERE item_id = :item_id AND attempted_at = :attempted_at")


def _insert_attempt(connection: Connection, attempt: AttemptRow, review_id: int | None, round_id: int | None,
                    replayed: bool) -> None:
    """Store the attempt, unless it was `replayed` from the journal and is stored already (same item, same moment)."""
    row = asdict(attempt)
    if not replayed or connection.execute(SAME_ATTEMPT, row).first() is None:
        connection.execute(INSERT_ATTEMPT, {**row, "review_id": review_id, "mock_round_id": round_id})


def record_review_attempt(engine: Engine, grade: Grade, attempt: AttemptRow, regrade: Regrade,
                          replayed: bool = False) -> int:
    """A graded estimate in the daily review: the review, the new state and the attempt, together."""
    with writing(engine) as connection:
        review_id = insert_review(connection, grade, regrade, replayed)
        _insert_attempt(connection, attempt, review_id, None, replayed)
    return review_id


def start_round(engine: Engine, started_at: datetime, problems: int, time_limit_s: int, blocks: list[str]) -> int:
    with writing(engine) as connection:
        return connection.execute(
            text(
                """INSERT INTO mock_round (started_at, problems, time_limit_s, blocks)
                VALUES (:started_at, :problems, :time_limit_s, :blocks) RETURNING id"""
            ),
            {"started_at": started_at, "problems": problems, "time_limit_s": time_limit_s, "blocks": json.dumps(blocks)},
        ).scalar_one()


def record_round_attempt(engine: Engine, round_id: int, attempt: AttemptRow, replayed: bool = False) -> None:
    with writing(engine) as connection:
        _insert_attempt(connection, attempt, None, round_id, replayed)


def finish_round(engine: Engine, round_id: int, finished_at: datetime, score: float, abandoned: bool) -> None:
    with writing(engine) as connection:
        connection.execute(
            text("UPDATE mock_round SET finished_at = :at, score = :score, abandoned = :abandoned WHERE id = :id"),
            {"at": finished_at, "score": score, "abandoned": abandoned, "id": round_id},
        )


def time_used(row) -> float:
    """The round's clock: start to finish, at most its limit (an unfinished round: its answers' time)."""
    if row.finished_at is None:
        return float(row.seconds)
    started, finished = (datetime.fromisoformat(as_text(value)) for value in (row.started_at, row.finished_at))
    return min(float(row.time_limit_s), max(0.0, (finished - started).total_seconds()))


def round_history(engine: Engine, limit: int = 50) -> list[RoundRow]:
    """Past rounds, newest first, with how many problems were answered and the time used."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT r.id, r.started_at, r.finished_at, r.problems, r.time_limit_s, r.score, r.abandoned,
                    COUNT(a.id) AS answered, COALESCE(SUM(a.seconds), 0) AS seconds
                FROM mock_round r LEFT JOIN estimate_attempt a ON a.mock_round_id = r.id
                GROUP BY r.id, r.started_at, r.finished_at, r.problems, r.time_limit_s, r.score, r.abandoned
                ORDER BY r.started_at DESC LIMIT :limit"""
            ),
            {"limit": limit},
        ).all()
    return [
        RoundRow(row.id, as_text(row.started_at), row.problems, row.answered, row.time_limit_s,
                 time_used(row), row.score, bool(row.abandoned))
        for row in rows
    ]


def round_attempts(engine: Engine, round_id: int) -> list[dict[str, Any]]:
    """A round's answers in the order given: the estimate_attempt columns, params decoded."""
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT item_id, attempted_at, params, answer, parsed, truth, unit, score, log_error, slip, error,
                    seconds FROM estimate_attempt WHERE mock_round_id = :round_id ORDER BY attempted_at, id"""
            ),
            {"round_id": round_id},
        ).mappings().all()
    return [{**row, "params": json.loads(row["params"]), "attempted_at": as_text(row["attempted_at"])} for row in rows]
