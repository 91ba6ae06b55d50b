"""A coding drill passed is never a same-day repeat: with hints it is Good (a shorter interval than
a clean pass), not Hard, so it leaves today's queue and home's list of drills due."""

from __future__ import annotations

from datetime import timedelta

from drill.coding.attempt import CodingAttempt
from drill.study import Study


def test_a_drill_passed_with_a_hint_comes_back_in_a_day_or_more(drill_home, clock) -> None:
    from drill.paths import Paths

    paths = Paths(drill_home)
    paths.ensure()
    study = Study.open(paths, clock)
    item_id = "kernel:dpo-loss"
    card = study.reviews.cards([item_id])[0]
    today = study.today
    helped = study.drills.grade(card, "pass", 300.0, 1)
    clean = study.drills.grade(card, "pass", 300.0, 0)
    assert helped.button == 3 and clean.button == 4  # Good and Easy
    assert helped.after.due_day is not None and helped.after.due_day >= today + timedelta(days=1)
    assert helped.after.easiness < clean.after.easiness and helped.after.due_day <= clean.after.due_day
    attempt = CodingAttempt(item_id, clock(), clock(), "pass", 3, 0, "cpu", 1, 300.0, None, "ws")
    study.drills.save_attempt(attempt, helped).result()
    assert item_id not in study.reviews.queue()
    assert "dpo-loss" not in study.browsing.home().drills_due
    study.close()
