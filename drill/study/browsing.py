"""The browsing job: the home screen's summary of the day, and how the browser shows memory."""

from __future__ import annotations

from drill.coding.drills import drill_id
from drill.home import HomeSummary
from drill.schedule import memory
from drill.schedule import plan as planning
from drill.store import queries
from drill.study.core import Core


class Browsing:
    """What the home screen and the card browser show of the study as a whole."""

    def __init__(self, study: Core) -> None:
        self.study = study

    def home(self) -> HomeSummary:
        """Today's counts by block, what the interview plan brings forward, and the drills due."""
        study, config = self.study, self.study.config
        today = study.today
        by_block = queries.block_counts(study.engine, today)
        progress = queries.day_progress(study.engine, today)
        unseen = sum(counts.new for counts in by_block.values())
        new_per_day = config.new_per_day
        interview = config.interview_date
        today_plan = study.interview_plan(today)
        if today_plan is not None:
            start = planning.window_start(today_plan.interview, config.plan_window_days)
            forward = queries.brought_forward_blocks(study.engine, today_plan.interview, start, today_plan.bring_today)
            for block, number in forward.items():
                counts = by_block.get(block, queries.BlockCounts())
                by_block[block] = counts.model_copy(update={"due": counts.due + number})
            new_per_day = today_plan.new_per_day
        return HomeSummary(
            today=today,
            by_block=by_block,
            reviews_total=queries.reviews_total(study.engine),
            due_today=sum(counts.due for counts in by_block.values()),
            new_available=min(unseen, max(0, new_per_day - progress.new_done)),
            interview_date=interview,
            content_errors=study.content_errors,
            plan=today_plan,
            drills_due=[drill_id(item) for item in queries.due_drills(study.engine, today)],
            reviews_today=progress.reviews_done,
        )

    def measures_stability(self) -> bool:
        """Whether the scheduler in use keeps memory as FSRS's stability (else as SM-2's ease and interval)."""
        return memory.get(self.study.config.scheduler).curve().memory == "stability"
