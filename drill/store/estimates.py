"""Estimation writes and reads: attempts (in reviews or mock rounds) and the rounds themselves."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any

from pydantic import PlainSerializer
from sqlalchemy import Connection, Engine, Row, bindparam, func, insert, select, update

from drill.estimate.attempt import AttemptRow
from drill.read_model import ReadModel
from drill.schedule.records import Grade, Regrade
from drill.store.dialect import as_iso, as_text
from drill.store.rounding import Rounded, rounded
from drill.store.tables import estimate_attempt, mock_round
from drill.store.transactions import writing
from drill.store.writes import insert_review

INSERT_ATTEMPT = insert(estimate_attempt)  # the columns are the row's keys


class RoundRow(ReadModel):
    """One mock round, as the history list shows it and `drill stats --json` writes it (in this
    order, the score to 4 places and the time used to 1)."""

    id: int
    started_at: str  # the stored UTC moment, ISO
    problems: int
    answered: int
    score: Rounded
    seconds: Annotated[float, PlainSerializer(lambda value: rounded(value, 1))]
    time_limit_s: int
    abandoned: bool

    @classmethod
    def of(cls, row: Row[*tuple[Any, ...]]) -> RoundRow:
        """From a mock_round row with its `answered` count and its answers' `seconds`."""
        return cls(
            id=row.id,
            started_at=as_iso(row.started_at),
            problems=row.problems,
            answered=row.answered,
            score=row.score,
            seconds=time_used(row),
            time_limit_s=row.time_limit_s,
            abandoned=bool(row.abandoned),
        )


SAME_ATTEMPT = select(1).where(
    estimate_attempt.c.item_id == bindparam("item_id"), estimate_attempt.c.attempted_at == bindparam("attempted_at")
)


def _insert_attempt(
    connection: Connection, attempt: AttemptRow, review_id: int | None, round_id: int | None, replayed: bool
) -> None:
    """Store the attempt, unless it was `replayed` from the journal and is stored already (same item, same moment)."""
    row = asdict(attempt)
    if not replayed or connection.execute(SAME_ATTEMPT, row).first() is None:
        connection.execute(INSERT_ATTEMPT, {**row, "review_id": review_id, "mock_round_id": round_id})


def record_review_attempt(
    engine: Engine, grade: Grade, attempt: AttemptRow, regrade: Regrade, replayed: bool = False
) -> int:
    """A graded estimate in the daily review: the review, the new state and the attempt, together."""
    with writing(engine) as connection:
        review_id = insert_review(connection, grade, regrade, replayed)
        _insert_attempt(connection, attempt, review_id, None, replayed)
    return review_id


def start_round(engine: Engine, started_at: datetime, problems: int, time_limit_s: int, blocks: list[str]) -> int:
    with writing(engine) as connection:
        return connection.execute(
            insert(mock_round).returning(mock_round.c.id),
            {
                "started_at": started_at,
                "problems": problems,
                "time_limit_s": time_limit_s,
                "blocks": json.dumps(blocks),
            },
        ).scalar_one()


def record_round_attempt(engine: Engine, round_id: int, attempt: AttemptRow, replayed: bool = False) -> None:
    with writing(engine) as connection:
        _insert_attempt(connection, attempt, None, round_id, replayed)


def finish_round(engine: Engine, round_id: int, finished_at: datetime, score: float, abandoned: bool) -> None:
    with writing(engine) as connection:
        connection.execute(
            update(mock_round)
            .where(mock_round.c.id == round_id)
            .values(finished_at=finished_at, score=score, abandoned=abandoned)
        )


def time_used(row: Row[*tuple[Any, ...]]) -> float:
    """The round's clock: start to finish, at most its limit (an unfinished round: its answers' time)."""
    if row.finished_at is None:
        return float(row.seconds)
    started, finished = (datetime.fromisoformat(as_iso(value)) for value in (row.started_at, row.finished_at))
    return min(float(row.time_limit_s), max(0.0, (finished - started).total_seconds()))


def round_history(engine: Engine, limit: int = 50) -> list[RoundRow]:
    """Past rounds, newest first, with how many problems were answered and the time used."""
    query = (
        select(
            mock_round.c.id,
            mock_round.c.started_at,
            mock_round.c.finished_at,
            mock_round.c.problems,
            mock_round.c.time_limit_s,
            mock_round.c.score,
            mock_round.c.abandoned,
            func.count(estimate_attempt.c.id).label("answered"),
            func.coalesce(func.sum(estimate_attempt.c.seconds), 0).label("seconds"),
        )
        .outerjoin(estimate_attempt, estimate_attempt.c.mock_round_id == mock_round.c.id)
        .group_by(
            mock_round.c.id,
            mock_round.c.started_at,
            mock_round.c.finished_at,
            mock_round.c.problems,
            mock_round.c.time_limit_s,
            mock_round.c.score,
            mock_round.c.abandoned,
        )
        .order_by(mock_round.c.started_at.desc())
        .limit(limit)
    )
    with engine.connect() as connection:
        return [RoundRow.of(row) for row in connection.execute(query)]


ROUND_ATTEMPTS = (
    select(
        estimate_attempt.c.item_id,
        estimate_attempt.c.attempted_at,
        estimate_attempt.c.params,
        estimate_attempt.c.answer,
        estimate_attempt.c.parsed,
        estimate_attempt.c.truth,
        estimate_attempt.c.unit,
        estimate_attempt.c.score,
        estimate_attempt.c.log_error,
        estimate_attempt.c.slip,
        estimate_attempt.c.error,
        estimate_attempt.c.seconds,
    )
    .where(estimate_attempt.c.mock_round_id == bindparam("round_id"))
    .order_by(estimate_attempt.c.attempted_at, estimate_attempt.c.id)
)


def round_attempts(engine: Engine, round_id: int) -> list[dict[str, Any]]:
    """A round's answers in the order given: the estimate_attempt columns, params decoded."""
    with engine.connect() as connection:
        rows = connection.execute(ROUND_ATTEMPTS, {"round_id": round_id}).mappings().all()
    return [{**row, "params": json.loads(row["params"]), "attempted_at": as_text(row["attempted_at"])} for row in rows]
