"""Today's queue order and limits."""

from datetime import date

from drill.schedule.queue import Candidate, Limits, build, interleave_blocks

TODAY = date(2026, 11, 22)


def due(item_id: str, block: str, day: int) -> Candidate:
    return Candidate(item_id, block, date(2026, 11, day))


def test_most_overdue_first_then_blocks_interleaved() -> None:
    items = [
        due("m-late", "memory", 20),
        due("m-old", "memory", 1),
        due("c-old", "compute", 1),
        due("m-old2", "memory", 1),
    ]
    assert build(items, [], Limits()) == ["m-old", "c-old", "m-old2", "m-late"]


def test_new_items_follow_due_items_up_to_the_daily_limit() -> None:
    new = [Candidate(f"n-{i}", "memory" if i % 2 else "compute") for i in range(10)]
    order = build([due("d", "memory", 21)], new, Limits(new_per_day=3))
    assert order[0] == "d"
    assert len(order) == 4


def test_new_items_already_introduced_today_count_against_the_limit() -> None:
    new = [Candidate(f"n-{i}", "memory") for i in range(10)]
    assert len(build([], new, Limits(new_per_day=5, new_done_today=4))) == 1
    assert build([], new, Limits(new_per_day=5, new_done_today=9)) == []


def test_daily_review_maximum_caps_everything() -> None:
    items = [due(f"d-{i}", "memory", 1) for i in range(50)]
    new = [Candidate(f"n-{i}", "memory") for i in range(10)]
    assert len(build(items, new, Limits(max_reviews_per_day=30))) == 30
    assert len(build(items, new, Limits(max_reviews_per_day=30, reviews_done_today=25))) == 5


def test_interleave_round_robins_blocks_keeping_their_order() -> None:
    items = [
        Candidate("m1", "memory"),
        Candidate("m2", "memory"),
        Candidate("m3", "memory"),
        Candidate("c1", "compute"),
    ]
    assert [c.item_id for c in interleave_blocks(items)] == ["m1", "c1", "m2", "m3"]
