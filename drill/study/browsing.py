"""The browsing job: the home screen's summary of the day, and how the browser shows memory."""

from __future__ import annotations

from collections import Counter

from drill.coding.drills import drill_id
from drill.home import HomeSummary
from drill.schedule import memory
from drill.store import queries
from drill.study.core import Core
from drill.study.reviews import Reviews


class Browsing:
    """What the home screen and the card browser show of the study as a whole."""

    def __init__(self, study: Core, reviews: Reviews) -> None:
        self.study, self.reviews = study, reviews

    def home(self) -> HomeSummary:
        """Today's counts by block, the unseen and the reviews given; what is due and new today is
        today's queue (`drill queue`), so the limits, buried siblings and what the interview plan
        brings forward count as the review serves them."""
        study = self.study
        today = study.today
        todays = self.reviews.todays()
        due = Counter(candidate.block for candidate in todays if candidate.due_day is not None)
        by_block = {
            block: counts.model_copy(update={"due": due[block]})
            for block, counts in queries.block_counts(study.engine).items()
        }
        drills = [candidate.item_id for candidate in todays if candidate.kind == "coding" and candidate.due_day]
        return HomeSummary(
            today=today,
            by_block=by_block,
            reviews_total=queries.reviews_total(study.engine),
            due_today=due.total(),
            new_available=len(todays) - due.total(),
            interview_date=study.config.interview_date,
            content_errors=study.content_errors,
            plan=study.interview_plan(today),
            drills_due=[drill_id(item) for item in drills],
            reviews_today=queries.day_progress(study.engine, today).reviews_done,
        )

    def measures_stability(self) -> bool:
        """Whether the scheduler in use keeps memory as FSRS's stability (else as SM-2's ease and interval)."""
        return memory.get(self.study.config.scheduler).curve().memory == "stability"
