"""The home screen's headline shows the pace the interview plan needs."""

from datetime import date

from drill.schedule.plan import PlanCounts, make
from drill.home import HomeSummary
from drill.tui.screens.home import headline

TODAY = date(2026, 11, 22)


def summary(interview: date | None, plan=None) -> HomeSummary:
    return HomeSummary(TODAY, {}, 0, 3, 8, interview, plan=plan)


def test_headline_shows_the_pace_needed() -> None:
    interview = date(2026, 12, 2)
    plan = make(TODAY, interview, PlanCounts(pending=0, unseen=75), new_per_day=5)
    text = headline(summary(interview, plan)).plain
    assert "Interview 2026-12-02 — in 10 days" in text
    assert "Plan: 8 new/day needed to finish 75 unseen" in text


def test_headline_shows_the_pace_used_and_items_brought_forward() -> None:
    interview = date(2026, 11, 25)
    plan = make(TODAY, interview, PlanCounts(pending=12, unseen=6), new_per_day=15)
    text = headline(summary(interview, plan)).plain
    assert "Plan: 2 new/day needed (pace 15) to finish 6 unseen\n" in text
    assert "\n12 due after the interview brought forward, 4 today" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_headline_without_a_plan() -> None:
    assert "Plan" not in headline(summary(None)).plain
    passed = headline(summary(date(2026, 11, 1))).plain
    assert "passed" in passed and "Plan" not in passed
