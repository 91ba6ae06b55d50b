"""The interviews job: a mock interview drawn (fresh numbers for its estimates, the score it is
predicted to get), and its start, answers and end written in the background."""

from __future__ import annotations

from concurrent.futures import Future

from drill.interview.plan import InterviewPlan, Step, draw
from drill.interview.scorecard import InterviewAnswer, Scorecard
from drill.interview.settings import InterviewSettings
from drill.store.forecast import predicted
from drill.store.interviews import finish_interview, pool, record_answer, start_interview
from drill.study.core import Core
from drill.study.estimation import Estimation


class Interviews:
    """Mock interviews planned and stored."""

    def __init__(self, study: Core, estimation: Estimation) -> None:
        self.study = study
        self.estimation = estimation

    def plan(self, settings: InterviewSettings) -> InterviewPlan:
        """Draw a mock interview's items, with fresh numbers for its estimates (call from a
        worker: sympy evaluates them) and the score it is predicted to get today; nothing is
        stored until `start`."""
        drawn = draw(pool(self.study.engine), settings, self.study.rng, self.study.today)
        if any(section == "estimate" for section, _ in drawn):
            self.estimation.warm_up()
        return InterviewPlan(
            settings,
            tuple(
                Step(section, card, self.estimation.new_problem(card.item_id) if section == "estimate" else None)
                for section, card in drawn
            ),
            forecast=predicted(self.study.engine, drawn, self.study.today, self.study.config.scheduler),
        )

    def start(self, plan: InterviewPlan) -> Future[int]:
        """Store a mock interview as it starts; the future gives its id."""
        return self.study.writer.submit(
            "the start of the mock interview", start_interview, self.study.engine, plan, self.study.clock()
        )

    def save_answer(
        self, interview_id: int, answer: InterviewAnswer, recorded: Future[int] | None = None
    ) -> Future[None]:
        """Commit one interview answer after the review it also was (`recorded`, from a save of its
        grade or estimate), pointing at that review."""
        return self.study.writer.submit(
            f"the interview answer to {answer.item_id}",
            record_answer,
            self.study.engine,
            interview_id,
            answer,
            self.study.clock(),
            recorded,
        )

    def save_end(self, interview_id: int, scorecard: Scorecard) -> Future[None]:
        return self.study.writer.submit(
            "the end of the mock interview",
            finish_interview,
            self.study.engine,
            interview_id,
            scorecard,
            self.study.clock(),
        )
