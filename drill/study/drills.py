"""The drills job: the review a finished coding drill counts as, and its attempt's write."""

from __future__ import annotations

from concurrent.futures import Future

from drill.coding.attempt import CodingAttempt
from drill.coding.drills import quality
from drill.days import study_day
from drill.schedule import grading
from drill.schedule.records import Card, Grade
from drill.study.core import Core


class Drills:
    """Coding drills graded and saved."""

    def __init__(self, study: Core) -> None:
        self.study = study
        # The review each drill's last ended attempt counted as, with its write, by item id: the
        # review session that opened the drill counts it as one of its grades.
        self.reviews: dict[str, tuple[Grade, Future[int | None]]] = {}

    def grade(self, card: Card, status: str, seconds: float, hints_used: int) -> Grade:
        """The review a finished drill counts as: quality from the result and the time against budget."""
        now = self.study.clock()
        today = study_day(now, self.study.config.rollover_hour)
        given = quality(status, seconds, card.target_seconds or 0, hints_used)
        return Grade(
            card.item_id,
            grading.button_for_quality(given),
            given,
            int(seconds * 1000),
            now,
            today,
            card.state,
            self.study.next_state(card, given, today),
        )

    def save_attempt(self, attempt: CodingAttempt, grade: Grade | None) -> Future[int | None]:
        """Commit a test run, with the review an ended drill counts as (`grade`, kept in `reviews`)."""
        saved: Future[int | None] = self.study.write(
            f"the attempt at {attempt.item_id}", "coding", attempt, grade, watch=attempt.item_id
        )
        if grade is not None:
            self.reviews[grade.item_id] = (grade, saved)
        return saved
