"""The home screen's headline shows the pace the interview plan needs."""

from datetime import date

from drill.home import HomeSummary
from drill.schedule.plan import PlanCounts, make
from drill.tui.screens.home import headline

TODAY = date(2026, 11, 22)


def summary(interview: date | None, plan=None) -> HomeSummary:
    return HomeSummary(
        today=TODAY, by_block={}, reviews_total=0, due_today=3, new_available=8, interview_date=interview, plan=plan
    )


def test_headline_shows_the_pace_needed() -> None:
    interview = date(2026, 12, 2)
    plan = make(TODAY, interview, PlanCounts(pending=0, unseen=75), new_per_day=5)
    text = headline(summary(interview, plan)).plain
    assert "\nInterview 2026-12-02: in 10 days.\n" in text
    assert text.endswith("\nPlan: 8 new a day needed to see all 75 unseen.")


def test_headline_shows_the_pace_used_and_items_brought_forward() -> None:
    interview = date(2026, 11, 25)
    plan = make(TODAY, interview, PlanCounts(pending=12, unseen=6), new_per_day=15)
    text = headline(summary(interview, plan)).plain
    assert "\nPlan: 2 new a day needed to see all 6 unseen; the queue brings 15 a day.\n" in text
    assert "\n12 items due after the interview brought forward, 4 of them today." in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_headline_without_a_plan() -> None:
    assert "Plan" not in headline(summary(None)).plain
    passed = headline(summary(date(2026, 11, 1))).plain
    assert "Interview 2026-11-01: it has passed." in passed and "Plan" not in passed


def test_headline_sentences_say_which_counts_are_today_and_which_all_time() -> None:
    fresh = headline(summary(None)).plain
    assert fresh == "Today: 3 due, 8 new. No reviews yet."
    studied = HomeSummary(
        today=TODAY,
        by_block={},
        reviews_total=26,
        due_today=3,
        new_available=8,
        interview_date=None,
        reviews_today=1,
        drills_due=["dpo-loss", "lora"],
    )
    assert headline(studied).plain == (
        "Today: 3 due, 8 new. 1 review done today, 26 in all.\nCoding drills due today (in the review): dpo-loss, lora."
    )
