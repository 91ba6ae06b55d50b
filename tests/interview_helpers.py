"""A mock interview driven through the study layer the way its screen drives it (no terminal)."""

from __future__ import annotations

from drill.interview.scorecard import InterviewAnswer, Scorecard, button_score
from drill.interview.settings import InterviewSettings
from drill.study import Study


def run_interview(study: Study, settings: InterviewSettings, ended: str = "done") -> Scorecard:
    """Answer every step the way the screen does: a grade or an estimate, then the interview answer."""
    plan = study.plan_interview(settings)
    interview_id = study.start_interview(plan).result()
    answers = []
    for position, step in enumerate(plan.steps):
        if step.section == "estimate":
            text = step.problem.pretty
            assert study.check_answer(step.problem, text) is None
            attempt = study.answer_problem(step.problem, text, 30.0)
            grade = study.grade_attempt(step.card, attempt)
            recorded = study.save_estimate(grade, attempt)
            answer = InterviewAnswer(position, "estimate", step.item_id, 30.0, attempt.score, grade.button, None, text,
                                     attempt.result.feedback, attempt.report())
        else:
            grade = study.grade(step.card, 3, 45_000)
            recorded = study.save_grade(grade)
            answer = InterviewAnswer(position, step.section, step.item_id, 45.0, button_score(3), 3,
                                     step.card.target_seconds, None, "Good")
        study.save_interview_answer(interview_id, answer, recorded)
        answers.append(answer)
    card = Scorecard(settings, plan.planned(), tuple(answers), 300.0, ended, interview_id,
                     items=tuple((s.section, s.item_id) for s in plan.steps))
    study.save_interview_end(interview_id, card)
    return card
