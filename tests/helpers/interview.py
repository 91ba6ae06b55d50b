"""A mock interview driven through the study layer the way its screen drives it (no terminal)."""

from __future__ import annotations

from drill.estimate.answer_check import check_answer
from drill.interview.scorecard import InterviewAnswer, Scorecard, button_score
from drill.interview.settings import InterviewSettings
from drill.study import Study


def run_interview(study: Study, settings: InterviewSettings, ended: str = "done") -> Scorecard:
    """Answer every step the way the screen does: a grade or an estimate, then the interview answer."""
    plan = study.interviews.plan(settings)
    interview_id = study.interviews.start(plan).result()
    answers = []
    for position, step in enumerate(plan.steps):
        if step.section == "estimate":
            text = step.problem.pretty
            assert check_answer(step.problem, text) is None
            attempt = study.estimation.answer(step.problem, text, 30.0)
            grade = study.reviews.grade_estimate(step.card, attempt)
            recorded = study.reviews.save_estimate(grade, attempt)
            answer = InterviewAnswer(
                position,
                "estimate",
                step.item_id,
                30.0,
                attempt.score,
                grade.button,
                None,
                text,
                attempt.result.feedback,
                attempt.report(),
            )
        else:
            grade = study.reviews.grade(step.card, 3, 45_000)
            recorded = study.reviews.save_grade(grade)
            answer = InterviewAnswer(
                position, step.section, step.item_id, 45.0, button_score(3), 3, step.card.target_seconds, None, "Good"
            )
        study.interviews.save_answer(interview_id, answer, recorded)
        answers.append(answer)
    card = Scorecard(
        settings=settings,
        planned=plan.planned,
        answers=tuple(answers),
        seconds_used=300.0,
        ended=ended,
        interview_id=interview_id,
        items=tuple((s.section, s.item_id) for s in plan.steps),
    )
    study.interviews.save_end(interview_id, card)
    return card
