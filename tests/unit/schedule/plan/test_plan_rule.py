"""The interview plan's arithmetic (pure): even spreading, target days, new-item pace."""

import math
from datetime import date, timedelta

from drill.schedule.plan import PlanCounts, assign_targets, is_active, make, new_pace, spread, window_start

TODAY = date(2026, 11, 22)
INTERVIEW = date(2026, 12, 2)


def test_spread_fills_the_least_loaded_days_earliest_first() -> None:
    assert spread([0, 3, 0, 1, 0, 0, 0], 10) == [2, 0, 2, 1, 2, 2, 1]
    assert spread([0] * 7, 10) == [2, 2, 2, 1, 1, 1, 1]
    assert spread([5, 0, 0], 4) == [0, 2, 2]
    assert spread([2, 2], 0) == [0, 0] and spread([], 3) == []


def test_spread_matches_one_item_at_a_time_water_filling() -> None:
    for base in ([3, 1, 4, 1, 5, 9, 2], [0, 0, 7], [10, 0, 0, 0, 10], [1]):
        for extra in range(40):
            loads, naive = list(base), [0] * len(base)
            for _ in range(extra):
                day = min(range(len(base)), key=lambda i: (loads[i], i))
                loads[day] += 1
                naive[day] += 1
            assert spread(base, extra) == naive, (base, extra)


def test_targets_follow_due_order_and_day_order() -> None:
    days = [date(2026, 11, 25) + timedelta(days=n) for n in range(3)]
    targets = assign_targets(["a", "b", "c", "d", "e"], days, [2, 0, 3])
    assert targets == {"a": days[0], "b": days[0], "c": days[2], "d": days[2], "e": days[2]}


def test_plan_brings_items_into_the_final_window_only() -> None:
    counts = PlanCounts(pending=10, scheduled={date(2026, 11, 22): 4, date(2026, 11, 26): 3, date(2026, 11, 28): 1})
    plan = make(TODAY, INTERVIEW, counts, window=7, new_per_day=15, max_reviews_per_day=200)
    assert plan.active and plan.days_left == 10 and plan.window_start == date(2026, 11, 25)
    assert [day.day for day in plan.days] == [TODAY + timedelta(days=n) for n in range(10)]
    assert [day.brought_forward for day in plan.days] == [0, 0, 0, 2, 0, 2, 1, 2, 2, 1]
    assert [day.reviews + day.brought_forward for day in plan.days[3:]] == [2, 3, 2, 2, 2, 2, 1]
    assert plan.bring_today == 0 and plan.brought_forward == 10


def test_window_shrinks_to_the_days_left() -> None:
    today = date(2026, 11, 29)  # three days left: the whole remaining time is the window
    plan = make(today, INTERVIEW, PlanCounts(pending=7), window=7)
    assert plan.window_start == today and [day.brought_forward for day in plan.days] == [3, 2, 2]
    assert window_start(INTERVIEW, 7) == date(2026, 11, 25)  # a review on or after this day counts as seen


def test_new_pace_finishes_the_unseen_before_the_date() -> None:
    assert new_pace(100, 10, 5, 200) == (10, 10)
    assert new_pace(101, 10, 5, 200) == (11, 11)
    assert new_pace(20, 10, 15, 200) == (2, 15)  # never slower than the user's own setting
    assert new_pace(1000, 2, 15, 200) == (500, 200)  # never above the daily maximum
    plan = make(TODAY, INTERVIEW, PlanCounts(pending=0, unseen=97), new_per_day=3)
    assert plan.new_per_day_needed == math.ceil(97 / 10) == plan.new_per_day
    assert [day.new for day in plan.days] == [10] * 9 + [7] and plan.finishes_new


def test_new_items_give_way_to_reviews_within_the_daily_maximum() -> None:
    counts = PlanCounts(pending=0, scheduled={TODAY: 18}, unseen=10)
    plan = make(TODAY, TODAY + timedelta(days=2), counts, new_per_day=5, max_reviews_per_day=20)
    assert [(day.reviews, day.new) for day in plan.days] == [(18, 2), (0, 5)]
    assert not plan.finishes_new and plan.days_over_maximum == 0
    backlog = make(
        TODAY, TODAY + timedelta(days=2), PlanCounts(pending=0, scheduled={TODAY: 250}), max_reviews_per_day=200
    )
    assert backlog.days_over_maximum == 1 and backlog.model_dump(mode="json")["days_over_maximum"] == 1


def test_no_plan_on_or_after_the_interview_day() -> None:
    for today in (INTERVIEW, INTERVIEW + timedelta(days=3)):
        plan = make(today, INTERVIEW, PlanCounts(pending=5, unseen=5))
        assert not plan.active and plan.days == () and plan.bring_today == 0
        assert not is_active(today, INTERVIEW)
    assert not is_active(TODAY, None) and is_active(TODAY, INTERVIEW)


def test_plan_json_keys() -> None:
    plan = make(TODAY, INTERVIEW, PlanCounts(pending=3, unseen=4))
    figures = plan.model_dump(mode="json")
    assert {"days_left", "brought_forward", "new_per_day_needed", "daily_load"} <= set(figures)
    assert figures["days_left"] == 10 and figures["brought_forward"] == 3 and figures["new_per_day_needed"] == 1
    assert figures["daily_load"][3] == {"day": "2026-11-25", "reviews": 0, "brought_forward": 1, "new": 0, "total": 1}
    assert [day["brought_forward"] for day in figures["daily_load"]] == [0, 0, 0, 1, 1, 1, 0, 0, 0, 0]
