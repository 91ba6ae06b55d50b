"""The reviews job: today's queue and custom sessions, the grade each answer counts as (a custom
session's rule applied: cram keeps the schedule unless it reschedules), what a grade does to the
card's schedule, and the review writes (grade, undo, suspend, forget)."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, replace
from datetime import date

from drill.days import study_day
from drill.estimate.attempt import Attempt
from drill.schedule import custom as custom_sessions
from drill.schedule import grading, memory, queue
from drill.schedule import plan as planning
from drill.schedule.custom import CustomSession
from drill.schedule.grading import ItemState, comes_back_today, counts_today
from drill.schedule.queue import Candidate
from drill.schedule.records import Card, Grade
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store import queries
from drill.store.leeches import lapse_counts, standings
from drill.study.core import Core


@dataclass(frozen=True)
class Outcome:
    """What a grade does to its card's schedule, for the review screen to say."""

    kept: bool = False  # given in a cram session that keeps schedules: nothing moves
    again_today: bool = False  # the card comes back later today
    counted: bool = True  # the first grade of the card's study day: it moves the schedule
    days: int | None = None  # days until the review the scheduler gives the card once passed


def keeps_schedules(custom: CustomSession | None) -> bool:
    """Whether a session's grades leave every schedule as it was (cram that does not reschedule)."""
    return custom is not None and not custom.moves_schedules


def as_logged(grade: Grade, custom: CustomSession | None) -> Grade:
    """A grade as the session it was given in logs it (an early custom session's as cram)."""
    return grade if custom is None else custom.applied_to(grade)


class Reviews:
    """Today's cards and the grades given to them."""

    def __init__(self, study: Core) -> None:
        self.study = study

    def queue(self) -> list[str]:
        """Today's item ids in review order."""
        return [candidate.item_id for candidate in self.todays()]

    def todays(self) -> list[Candidate]:
        """Today's items in review order, each with its block and due day (None: new).

        Due items come first, by due day: only those up to the day today's room is reached are
        read (all of them when a sibling left out makes those too few), and unseen items only
        when the due ones leave room.
        """
        study, config = self.study, self.study.config
        engine, today = study.engine, study.today
        progress = queries.day_progress(engine, today)
        today_plan = study.interview_plan(today)
        limits = queue.Limits(
            new_per_day=config.new_per_day if today_plan is None else today_plan.new_per_day,
            max_reviews_per_day=config.max_reviews_per_day,
            new_done_today=progress.new_done,
            reviews_done_today=progress.reviews_done,
            new_mix=config.new_mix,
            new_done_by_kind=progress.new_done_by_kind,
        )
        room = queue.room_left(limits)
        if room == 0:
            return []
        shown = queries.reviewed_today(engine, today)
        due = queries.due_candidates(engine, today, per_block=room, first=room)
        if len(due) >= room and not queue.fills_day(due, limits, shown):
            due = queries.due_candidates(engine, today, per_block=room)
        if today_plan is not None:
            # Items due after the interview get an effective due day in its final days; nothing is stored.
            interview = today_plan.interview
            start = planning.window_start(interview, config.plan_window_days)
            due += queries.brought_forward(engine, today, interview, start, min(room, today_plan.bring_today))
        new = [] if queue.fills_day(due, limits, shown) else queries.new_candidates(engine, per_block=room)
        return queue.chosen(due, new, limits, shown)

    def cards(self, ids: list[str]) -> list[Card]:
        """The cards for `ids` in that order, each leech marked with why it is one."""
        with self.study.engine.connect() as connection:
            found = standings(connection, ids)
        threshold = self.study.config.leech_threshold
        return [
            replace(card, leech=found[card.item_id].describe())
            if card.item_id in found and found[card.item_id].is_leech(threshold)
            else card
            for card in queries.cards(self.study.engine, ids)
        ]

    def custom_cards(self, spec: CustomSession) -> list[Card]:
        """A custom session's cards: today's queue narrowed by the spec, or, for a session that shows
        items early (cram, review ahead, weakest), its pool from every active item."""
        if not spec.early:
            return [card for card in self.cards(self.queue()) if spec.matches(card)]
        engine, today, model = self.study.engine, self.study.today, memory.get(self.study.config.scheduler)
        pool = queries.session_pool(engine)
        recall = {card.item_id: value for card in pool if (value := model.recall(card.state, today)) is not None}
        with engine.connect() as connection:
            lapses = lapse_counts(connection)
        return custom_sessions.choose(spec, pool, today, recall, lapses, queries.mean_estimate_scores(engine))

    # -- grades -----------------------------------------------------------------------------

    def grade(
        self,
        card: Card,
        button: int,
        duration_ms: int,
        typed_answer: str | None = None,
        ticked: tuple[int, ...] | None = None,
        custom: CustomSession | None = None,
    ) -> Grade:
        """The grade for pressing `button` on `card` now, with what was typed and ticked, as the
        session (`custom`, None: today's queue) logs it; nothing is written yet."""
        now = self.study.clock()
        today = study_day(now, self.study.config.rollover_hour)
        quality = BUTTON_QUALITY[button]
        return as_logged(
            Grade(
                card.item_id,
                button,
                quality,
                duration_ms,
                now,
                today,
                card.state,
                self.study.next_state(card, quality, today),
                typed_answer,
                ticked,
            ),
            custom,
        )

    def grade_estimate(self, card: Card, attempt: Attempt, custom: CustomSession | None = None) -> Grade:
        """The review an answered estimate counts as (quality from the score, not from a button), as
        the session logs it."""
        today = study_day(attempt.attempted_at, self.study.config.rollover_hour)
        quality = attempt.result.quality
        after = self.study.next_state(card, quality, today)
        button = grading.button_for_quality(quality)
        return as_logged(
            Grade(
                card.item_id,
                button,
                quality,
                int(attempt.seconds * 1000),
                attempt.attempted_at,
                today,
                card.state,
                after,
            ),
            custom,
        )

    def scheduled_day(self, state: ItemState) -> date | None:
        """The day the item is due once passed: a passed state's own due day, else the day the
        configured scheduler gives it (a failed item is due today until a repeat passes it)."""
        if state.due_day is not None and not state.relearning:
            return state.due_day
        return grading.due_day(state, self.study.config.scheduler)

    def outcome(self, grade: Grade, custom: CustomSession | None = None) -> Outcome:
        """What `grade`, given in the session `custom`, does to its card's schedule."""
        if keeps_schedules(custom):
            return Outcome(kept=True)
        scheduled = self.scheduled_day(grade.after)
        return Outcome(
            again_today=comes_back_today(grade.button),
            counted=counts_today(grade.before, grade.study_day),
            days=None if scheduled is None else (scheduled - grade.study_day).days,
        )

    def previews(self, card: Card, custom: CustomSession | None = None) -> dict[int, Outcome]:
        """What each grade button (1–4) would do to `card`'s schedule today, in the session `custom`."""
        if keeps_schedules(custom):
            return {button: Outcome(kept=True) for button in BUTTON_QUALITY}
        return {button: self.outcome(self.grade(card, button, 0)) for button in BUTTON_QUALITY}

    # -- writes: each journalled and handed to the study's writer ---------------------------

    def save_grade(self, grade: Grade) -> Future[int]:
        """Commit a grade; the future gives its review id."""
        return self.study.write(f"the grade of {grade.item_id}", "grade", grade, watch=grade.item_id)

    def save_estimate(self, grade: Grade, attempt: Attempt) -> Future[int]:
        """Commit an answered estimate card: its review and its attempt; the future gives the review id."""
        return self.study.write(f"the answer to {grade.item_id}", "estimate", grade, attempt.row(), watch=grade.item_id)

    def save_undo(self, grade: Grade) -> Future[None]:
        """Take back a grade (written before it, in order)."""
        return self.study.write(f"the undo on {grade.item_id}", "undo", grade)

    def save_suspended(self, item_id: str, suspended: bool = True) -> Future[None]:
        return self.study.write(
            f"{'suspending' if suspended else 'unsuspending'} {item_id}", "suspend", item_id, suspended
        )

    def save_forget(self, item_id: str) -> Future[None]:
        """Put an item back to new; its history stays."""
        return self.study.write(f"forgetting {item_id}", "forget", item_id, self.study.clock())
