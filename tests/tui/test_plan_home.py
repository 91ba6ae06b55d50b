"""The home screen's headline shows the pace the interview plan needs."""

from datetime import date

from drill.home import HomeSummary
from drill.schedule.plan import PlanCounts, make
from drill.store.queries import BlockCounts
from drill.tui.screens.home import block_table, headline

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
    assert text.endswith("\nPlan: 8 new a day needed for the 75 unseen cards.")


def test_headline_shows_the_pace_used_and_items_brought_forward() -> None:
    interview = date(2026, 11, 25)
    plan = make(TODAY, interview, PlanCounts(pending=12, unseen=6), new_per_day=15)
    text = headline(summary(interview, plan)).plain
    assert "\nPlan: 2 new a day needed for the 6 unseen cards; the queue brings 15 a day.\n" in text
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


def test_the_unseen_figure_is_what_is_left_now_and_the_pace_holds_all_day() -> None:
    interview = date(2026, 12, 2)
    morning = make(TODAY, interview, PlanCounts(pending=0, unseen=270), new_per_day=5)
    evening = make(TODAY, interview, PlanCounts(pending=0, unseen=270, seen_today=16), new_per_day=5)
    tomorrow = make(date(2026, 11, 23), interview, PlanCounts(pending=0, unseen=254), new_per_day=5)
    said = [headline(summary(interview, plan)).plain.splitlines()[-1] for plan in (morning, evening, tomorrow)]
    assert said == [
        "Plan: 27 new a day needed for the 270 unseen cards.",
        "Plan: 27 new a day needed for the 254 unseen cards.",  # 16 seen today
        "Plan: 29 new a day needed for the 254 unseen cards.",  # the next day, nothing seen: the same 254
    ]


def test_the_block_table_counts_drills_apart_and_says_what_each_column_counts() -> None:
    home = summary(None).model_copy(
        update={"by_block": {"compute": BlockCounts(items=12, due=4, new=7, drills=2, reviews=30)}}
    )
    table = block_table(home)
    assert [column.header for column in table.columns] == ["block", "due", "new", "cards", "drills", "reviews"]
    compute = [list(column.cells)[1] for column in table.columns]  # the blocks in order: compute second
    assert compute == ["compute", "4", "7", "10", "2", "30"]  # 12 items: 10 cards (7 of them new) and 2 drills
    assert "drills too" in str(table.caption) and "drills aside" in str(table.caption)
