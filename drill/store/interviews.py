"""Mock interviews in the store: the items they may ask, the interview row, its answers, history."""

from __future__ import annotations

import json
from concurrent.futures import Future
from datetime import datetime

from sqlalchemy import Engine, bindparam, text

from drill.interview.plan import GRILL_PREFIX, InterviewPlan
from drill.interview.scorecard import InterviewAnswer, Scorecard
from drill.interview.settings import InterviewSettings
from drill.schedule.records import Card
from drill.store.dialect import as_text
from drill.store.queries import ACTIVE, cards
from drill.store.transactions import writing

INSERT_ANSWER = text(
    """INSERT INTO mock_interview_answer (interview_id, position, section, item_id, review_id, answered_at,
        button, score, seconds, target_seconds, answer, result, detail)
    VALUES (:interview_id, :position, :section, :item_id, :review_id, :answered_at,
        :button, :score, :seconds, :target_seconds, :answer, :result, :detail)"""
)


def pool(engine: Engine) -> list[Card]:
    """Every active item an interview may ask: grill questions, pitches, estimation families, drills."""
    with engine.connect() as connection:
        ids = list(
            connection.execute(
                text(f"""SELECT id FROM item WHERE {ACTIVE}
                    AND ((kind = 'card' AND id LIKE :grill) OR kind IN ('pitch', 'estimate', 'coding'))
                    ORDER BY position, id"""),
                {"grill": GRILL_PREFIX + "%"},
            ).scalars()
        )
    return cards(engine, ids)


def start_interview(engine: Engine, plan: InterviewPlan, started_at: datetime) -> int:
    with writing(engine) as connection:
        return connection.execute(
            text("""INSERT INTO mock_interview (started_at, seconds_allowed, sections)
                VALUES (:started_at, :seconds_allowed, :sections) RETURNING id"""),
            {"started_at": started_at, "seconds_allowed": plan.settings.seconds, "sections": json.dumps(plan.as_json())},
        ).scalar_one()


def record_answer(engine: Engine, interview_id: int, answer: InterviewAnswer, answered_at: datetime,
                  recorded: "Future[int] | None" = None) -> None:
    """One answer; `recorded` is the write of the review it also was (done before this one, in
    the same writer), whose id it points at when that write committed."""
    review_id = recorded.result() if recorded is not None and recorded.exception() is None else None
    with writing(engine) as connection:
        connection.execute(INSERT_ANSWER, {
            "interview_id": interview_id, "position": answer.position, "section": answer.section,
            "item_id": answer.item_id, "review_id": review_id, "answered_at": answered_at, "button": answer.button,
            "score": answer.score, "seconds": answer.seconds, "target_seconds": answer.target_seconds,
            "answer": answer.answer, "result": answer.result, "detail": answer.detail,
        })


def finish_interview(engine: Engine, interview_id: int, card: Scorecard, finished_at: datetime) -> None:
    scores = card.section_scores()
    with writing(engine) as connection:
        connection.execute(
            text("""UPDATE mock_interview SET finished_at = :finished_at, seconds_used = :seconds_used,
                    grill_score = :grill, pitch_score = :pitch, estimate_score = :estimate, coding_score = :coding,
                    score = :score, ended = :ended, abandoned = :abandoned WHERE id = :id"""),
            {"finished_at": finished_at, "seconds_used": card.seconds_used, **scores, "score": card.score,
             "ended": card.ended, "abandoned": card.abandoned, "id": interview_id},
        )


def _answer(row) -> InterviewAnswer:
    return InterviewAnswer(row.position, row.section, row.item_id, float(row.seconds), float(row.score), row.button,
                           row.target_seconds, row.answer, row.result, row.detail)


def interview_history(engine: Engine, limit: int | None = 50) -> list[Scorecard]:
    """Past interviews with every answer, newest first. One still running (or cut off before its
    end was stored) reads as abandoned, with the time of its last answer."""
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id, started_at, finished_at, seconds_used, sections, ended FROM mock_interview "
                 "ORDER BY started_at DESC, id DESC" + ("" if limit is None else " LIMIT :limit")),
            {} if limit is None else {"limit": limit},
        ).all()
        if not rows:
            return []
        answers: dict[int, list[InterviewAnswer]] = {row.id: [] for row in rows}
        query = text("""SELECT interview_id, position, section, item_id, button, score, seconds, target_seconds,
                answer, result, detail FROM mock_interview_answer WHERE interview_id IN :ids ORDER BY position, id"""
                     ).bindparams(bindparam("ids", expanding=True))
        for row in connection.execute(query, {"ids": list(answers)}):
            answers[row.interview_id].append(_answer(row))
    history = []
    for row in rows:
        sections = json.loads(row.sections)
        given = tuple(answers[row.id])
        used = row.seconds_used if row.seconds_used is not None else sum(answer.seconds for answer in given)
        history.append(Scorecard(
            settings=InterviewSettings.from_json(sections["settings"]), planned=sections["planned"], answers=given,
            seconds_used=float(used), ended=row.ended or "abandoned", interview_id=row.id,
            started_at=as_text(row.started_at), items=tuple(tuple(pair) for pair in sections["items"]),
        ))
    return history


def interview_summary(engine: Engine) -> dict[str, float | int | None]:
    """Counts and mean scores over every interview (SQL aggregates; the figures for `drill stats`)."""
    with engine.connect() as connection:
        row = connection.execute(text(
            """SELECT COUNT(*) AS count,
                COUNT(*) FILTER (WHERE ended IN ('done', 'time')) AS finished,
                COUNT(*) FILTER (WHERE abandoned = TRUE OR ended IS NULL) AS abandoned,
                AVG(score) AS mean_score, MAX(score) AS best_score,
                AVG(grill_score) AS grill, AVG(pitch_score) AS pitch,
                AVG(estimate_score) AS estimate, AVG(coding_score) AS coding
            FROM mock_interview"""
        )).one()
    return dict(row._mapping)
