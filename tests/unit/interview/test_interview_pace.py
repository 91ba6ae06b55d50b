"""Where a pace leads, pure: items carried to the interview day as the plan schedules them for
someone who keeps up, each review passed as often as its recall predicts (a failed one relearnt),
unseen ones introduced at the pace, the minutes it takes, and the slowest pace that reaches a
target. SM-2 here: recall 0.9 ** (days since the review / interval); an Again resets to 1 day and
takes the easiness from 2.5 to 2.18."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from drill.interview.forecast import GOOD, Record
from drill.interview.pace import Course, Pace, finishing, outlook, reach
from drill.schedule.records import Card
from drill.schedule.state import ItemState

DAY = date(2026, 11, 22)
INTERVIEW = DAY + timedelta(days=10)  # window 7: the plan's final window starts DAY + 3


def card(item_id: str, state: ItemState | None = None) -> Card:
    return Card(item_id, "card", "memory", "Topic", "Prompt?", "Answer.", "", [], None, state or ItemState())


SEEN = card("grill-1", ItemState(2, 6, 2.5, DAY + timedelta(days=3), DAY - timedelta(days=3)))
UNSEEN = card("grill-2")
OTHER = card("c-1")  # a card no interview asks: it costs time, not score


def course(*items: Card) -> Course:
    return Course(
        items=items or (SEEN, UNSEEN, OTHER),
        today=DAY,
        interview=INTERVIEW,
        window=7,
        scheduler="sm2",
        records={"grill": Record()},
        asked={"grill": 2},
        pools={"grill": frozenset({"grill-1", "grill-2"})},
    )


# SEEN is reviewed on DAY + 3 with recall 0.9 ** (6 / 6). Passed (0.9): 6 × 2.5 = 15 days, due after
# the interview, reviewed inside the window. Failed (0.1): passed again on DAY + 4 (1 day) and
# DAY + 5 (6 days), four reviews in all with the same-day repeat, 5 days before the interview.
SEEN_KEPT = 0.9 * GOOD * 0.9 ** (7 / 15) + 0.1 * GOOD * 0.9 ** (5 / 6)
SEEN_REVIEWS = 0.9 * 1 + 0.1 * 4


def test_a_seen_item_is_reviewed_on_its_due_day_and_recalled_on_the_interview_day_from_there() -> None:
    result = outlook(course(SEEN), Pace({}))
    assert result.predicted.score == pytest.approx(SEEN_KEPT)
    assert result.reviews_per_day == pytest.approx(SEEN_REVIEWS / 10)
    assert result.minutes_per_day == pytest.approx(SEEN_REVIEWS * 20 / 60 / 10)  # a card's 20 s before any history


def test_every_review_passed_would_overstate_the_interview_day() -> None:
    """The projection is below what passing every review would give, by the failed reviews' share."""
    sure = outlook(course(SEEN), Pace({})).predicted.score
    assert sure < GOOD * 0.9 ** (7 / 15)


def test_unseen_items_come_at_the_pace_in_content_order_and_are_kept_up() -> None:
    result = outlook(course(), Pace({"card": 1.0}))
    # grill-2 from DAY (1 day, then 6: reviews on DAY+1 and DAY+7, each with recall 0.9, then 15 days).
    # Failed on DAY+1 (0.1): relearnt on DAY+2, +3 and +9 (1, 6, then ⌈6 × 2.18⌉ = 14 days).
    # Failed on DAY+7 (0.9 × 0.1): relearnt on DAY+8 and +9 (1, then 6 days).
    grill_2 = 0.81 * GOOD * 0.9 ** (3 / 15) + 0.1 * GOOD * 0.9 ** (1 / 14) + 0.09 * GOOD * 0.9 ** (1 / 6)
    grill_2_reviews = 1 + 0.81 * 2 + 0.1 * (2 + 3) + 0.09 * (3 + 2)  # the first, then as above with repeats
    assert result.predicted.score == pytest.approx((SEEN_KEPT + grill_2) / 2)
    # c-1 from DAY + 1, asked by no interview: every review passed (DAY+1, +2, +8).
    assert result.reviews_per_day == pytest.approx((SEEN_REVIEWS + grill_2_reviews + 3) / 10)
    assert result.new_per_day == 1.0


def test_an_item_due_after_the_interview_is_brought_into_the_final_window() -> None:
    long_ago = card("grill-1", ItemState(3, 30, 2.5, DAY + timedelta(days=20), DAY - timedelta(days=10)))
    result = outlook(course(long_ago), Pace({}))
    # Brought to the middle of the window (DAY + 3 + 7 // 2 = DAY + 6), 16 days after its review:
    # passed, 30 × 2.5 = 75 days; failed, relearnt on DAY + 7 and DAY + 8 (1, then 6 days).
    recall = 0.9 ** (16 / 30)
    assert result.predicted.score == pytest.approx(
        recall * GOOD * 0.9 ** (4 / 75) + (1 - recall) * GOOD * 0.9 ** (2 / 6)
    )
    assert result.reviews_per_day == pytest.approx((recall * 1 + (1 - recall) * 4) / 10)


def test_days_not_studied_leave_the_items_as_they_are() -> None:
    kept, left = SEEN_KEPT, GOOD * 0.9 ** (13 / 6)
    result = outlook(course(SEEN), Pace({}, study_share=0.5))
    assert result.predicted.score == pytest.approx((kept + left) / 2)


def test_a_pace_giving_less_time_than_keeping_up_takes_keeps_up_that_share() -> None:
    takes = SEEN_REVIEWS * 20 / 60 / 10  # minutes a day keeping SEEN up takes
    kept, left = SEEN_KEPT, GOOD * 0.9 ** (13 / 6)
    half = outlook(course(SEEN), Pace({}, minutes=takes / 2))
    assert half.predicted.score == pytest.approx((kept + left) / 2)
    assert half.minutes_per_day == pytest.approx(takes / 2)
    assert half.reviews_per_day == pytest.approx(SEEN_REVIEWS / 10 / 2)
    enough = outlook(course(SEEN), Pace({}, minutes=takes * 2))
    assert enough.predicted.score == pytest.approx(kept)  # more time than it takes changes nothing
    assert enough.minutes_per_day == pytest.approx(takes)


def test_the_target_is_reached_by_the_smallest_share_of_the_unseen_content() -> None:
    plan = course()
    unseen = outlook(plan, Pace({})).predicted.score
    last_day = outlook(plan, finishing(plan, 0.5, Pace({}))).predicted.score  # grill-2 on the last day
    assert last_day > unseen
    result = reach(plan, Pace({"card": 0.2}), (unseen + last_day) / 2, 200)
    assert result.reachable and not result.over_daily_maximum
    assert result.needed is not None
    assert result.needed.new_per_day == pytest.approx(0.5 * 2 / 10, abs=1e-3)  # half of two unseen cards in 10 days
    assert result.current.new_per_day == 0.2
    assert result.at_most.new_per_day == pytest.approx(2 / 10)
    written = result.model_dump(mode="json")
    assert list(written) == [
        "target",
        "at_current_pace",
        "to_reach_target",
        "reachable",
        "at_most",
        "over_daily_maximum",
    ]


def test_a_target_beyond_everything_says_so_and_what_everything_gives() -> None:
    result = reach(course(), Pace({}), 0.99, 200)
    assert not result.reachable and result.needed is None
    assert result.at_most.predicted.score < 0.99
    assert not result.over_daily_maximum


def test_a_pace_past_the_daily_maximum_is_said() -> None:
    assert reach(course(), Pace({}), 0.1, 0).over_daily_maximum


def test_the_plan_says_where_the_pace_leads_and_what_the_target_takes() -> None:
    plan = course()
    unseen = outlook(plan, Pace({})).predicted.score
    last_day = outlook(plan, finishing(plan, 0.5, Pace({}))).predicted.score
    slow_reach = reach(plan, Pace({}), (unseen + last_day) / 2, 200)
    slow, rate = slow_reach.said(), slow_reach.needed.new_per_day
    assert slow[0].startswith(f"Readiness on the interview day: {unseen:.0%} (") and "(0 new items and " in slow[0]
    assert 0 < rate < 0.95  # under one a day: said with its decimal, never rounded to 0
    assert slow[1].startswith(f"{(unseen + last_day) / 2:.0%} needs {rate:.1f} new items and ")
    assert reach(plan, Pace({"card": 1.0}), unseen, 200).said()[1] == f"{unseen:.0%} is within reach at your pace"
    beyond = reach(plan, Pace({}), 0.99, 200).said()
    assert beyond[1].startswith("99% is beyond reach: the most is ")
    assert "from introducing everything, drills too, and keeping it up (" in beyond[1]  # as the plan counts them
    assert beyond[1].endswith(f"({reach(plan, Pace({}), 0.99, 200).at_most.said()})")
    assert reach(plan, Pace({}), (unseen + last_day) / 2, 0).said()[2] == (
        "that is 1 item a day, more than max_reviews_per_day = 0 lets the queue serve"  # 0.6 reviews a day
    )


def test_the_most_a_pace_reaches_is_never_below_the_current_pace() -> None:
    """Introducing everything evenly up to the interview can predict less than a faster current
    pace (more days to review what came early): "beyond reach" then names the current pace."""
    plan = course()
    fast = Pace({"card": 50.0})
    result = reach(plan, fast, 0.999, 200)
    assert result.at_most.predicted.score >= result.current.predicted.score
    assert result.at_most.predicted.score >= outlook(plan, finishing(plan, 1.0, fast)).predicted.score
