"""Mock interviews in the store: the items they may ask, the interview row, its answers, history."""

from __future__ import annotations

import json
from concurrent.futures import Future
from datetime import datetime
from typing import Any, TypedDict

from pydantic import TypeAdapter
from sqlalchemy import Engine, Row, and_, bindparam, func, insert, or_, select, update

from drill.interview.plan import GRILL_PREFIX, InterviewPlan
from drill.interview.scorecard import InterviewAnswer, Scorecard
from drill.interview.settings import SECTIONS, InterviewSettings
from drill.schedule.records import Card
from drill.store.dialect import as_text
from drill.store.queries import ACTIVE, cards
from drill.store.tables import item, mock_interview, mock_interview_answer
from drill.store.transactions import writing

PLAN = TypeAdapter(InterviewPlan)  # what mock_interview.sections keeps
POOL = (
    select(item.c.id)
    .where(
        ACTIVE,
        or_(
            and_(item.c.kind == "card", item.c.id.startswith(GRILL_PREFIX, autoescape=True)),
            item.c.kind.in_(("pitch", "estimate", "coding")),
        ),
    )
    .order_by(item.c.position, item.c.id)
)
ANSWERS = (
    select(mock_interview_answer)
    .where(mock_interview_answer.c.interview_id.in_(bindparam("ids", expanding=True)))
    .order_by(mock_interview_answer.c.position, mock_interview_answer.c.id)
)


def pool(engine: Engine) -> list[Card]:
    """Every active item an interview may ask: grill questions, pitches, estimation families, drills."""
    with engine.connect() as connection:
        ids = list(connection.execute(POOL).scalars())
    return cards(engine, ids)


def start_interview(engine: Engine, plan: InterviewPlan, started_at: datetime) -> int:
    with writing(engine) as connection:
        return connection.execute(
            insert(mock_interview).returning(mock_interview.c.id),
            {
                "started_at": started_at,
                "seconds_allowed": plan.settings.seconds,
                "sections": json.dumps(PLAN.dump_python(plan, mode="json")),
                "predicted_score": None if plan.forecast is None else plan.forecast.score,
            },
        ).scalar_one()


def record_answer(
    engine: Engine,
    interview_id: int,
    answer: InterviewAnswer,
    answered_at: datetime,
    recorded: Future[int] | None = None,
) -> None:
    """One answer; `recorded` is the write of the review it also was (done before this one, in
    the same writer), whose id it points at when that write committed."""
    review_id = recorded.result() if recorded is not None and recorded.exception() is None else None
    with writing(engine) as connection:
        connection.execute(
            insert(mock_interview_answer),
            {
                "interview_id": interview_id,
                "position": answer.position,
                "section": answer.section,
                "item_id": answer.item_id,
                "review_id": review_id,
                "answered_at": answered_at,
                "button": answer.button,
                "score": answer.score,
                "seconds": answer.seconds,
                "target_seconds": answer.target_seconds,
                "answer": answer.answer,
                "result": answer.result,
                "detail": answer.detail,
            },
        )


def finish_interview(engine: Engine, interview_id: int, card: Scorecard, finished_at: datetime) -> None:
    scores = {f"{section}_score": score for section, score in card.section_scores().items()}
    with writing(engine) as connection:
        connection.execute(
            update(mock_interview)
            .where(mock_interview.c.id == interview_id)
            .values(
                finished_at=finished_at,
                seconds_used=card.seconds_used,
                **scores,
                score=card.score,
                ended=card.ended,
                abandoned=card.abandoned,
            )
        )


def _answer(row: Row[*tuple[Any, ...]]) -> InterviewAnswer:
    return InterviewAnswer(
        row.position,
        row.section,
        row.item_id,
        float(row.seconds),
        float(row.score),
        row.button,
        row.target_seconds,
        row.answer,
        row.result,
        row.detail,
    )


def interview_history(engine: Engine, limit: int | None = 50) -> list[Scorecard]:
    """Past interviews with every answer, newest first. One still running (or cut off before its
    end was stored) reads as abandoned, with the time of its last answer."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                mock_interview.c.id,
                mock_interview.c.started_at,
                mock_interview.c.finished_at,
                mock_interview.c.seconds_used,
                mock_interview.c.sections,
                mock_interview.c.ended,
            )
            .order_by(mock_interview.c.started_at.desc(), mock_interview.c.id.desc())
            .limit(limit)
        ).all()
        if not rows:
            return []
        answers: dict[int, list[InterviewAnswer]] = {row.id: [] for row in rows}
        for row in connection.execute(ANSWERS, {"ids": list(answers)}):
            answers[row.interview_id].append(_answer(row))
    history = []
    for row in rows:
        sections = json.loads(row.sections)
        given = tuple(answers[row.id])
        used = row.seconds_used if row.seconds_used is not None else sum(answer.seconds for answer in given)
        history.append(
            Scorecard(
                settings=InterviewSettings.model_validate(sections["settings"]),
                planned=sections["planned"],
                answers=given,
                seconds_used=float(used),
                ended=row.ended or "abandoned",
                interview_id=row.id,
                started_at=as_text(row.started_at),
                items=tuple(tuple(pair) for pair in sections["items"]),
                forecast=sections.get("forecast"),
            )
        )
    return history


SUMMARY = select(
    func.count().label("count"),
    func.count().filter(mock_interview.c.ended.in_(("done", "time"))).label("finished"),
    func.count().filter(or_(mock_interview.c.abandoned, mock_interview.c.ended.is_(None))).label("abandoned"),
    func.avg(mock_interview.c.score).label("mean_score"),
    func.max(mock_interview.c.score).label("best_score"),
    func.avg(mock_interview.c.grill_score).label("grill"),
    func.avg(mock_interview.c.pitch_score).label("pitch"),
    func.avg(mock_interview.c.estimate_score).label("estimate"),
    func.avg(mock_interview.c.coding_score).label("coding"),
)


class InterviewSummary(TypedDict):
    """interview_summary's figures: counts, the best and mean scores, and each section's mean score."""

    count: int
    finished: int
    abandoned: int
    mean_score: float | None
    best_score: float | None
    by_section: dict[str, float | None]


def interview_summary(engine: Engine) -> InterviewSummary:
    """Counts and mean scores over every interview (SQL aggregates; the figures for `drill stats`)."""
    with engine.connect() as connection:
        row = connection.execute(SUMMARY).one()._mapping
    return InterviewSummary(
        count=row["count"],
        finished=row["finished"],
        abandoned=row["abandoned"],
        mean_score=row["mean_score"],
        best_score=row["best_score"],
        by_section={section: row[section] for section in SECTIONS},
    )
