"""The in-memory review session: order, repeats, undo, suspend, summary."""

from datetime import UTC, date, datetime

from drill.schedule.grading import ItemState, apply
from drill.schedule.records import Card, Grade
from drill.schedule.session import ReviewSession

TODAY = date(2026, 11, 22)


def card(item_id: str) -> Card:
    return Card(item_id, "card", "memory", "T", "p", "a", "s", [], None, ItemState())


def grade_of(c: Card, button: int) -> Grade:
    after = apply(c.state, button, TODAY)
    return Grade(c.item_id, button, button + 1, 1000, datetime(2026, 11, 22, tzinfo=UTC), TODAY, c.state, after)


def test_failed_cards_return_until_passed_and_summary_counts_everything() -> None:
    session = ReviewSession([card(x) for x in "abcde"])
    session.answer(grade_of(session.current, 1))  # a: Again → back after three others
    assert list(session.order) == ["b", "c", "d", "a", "e"]
    for _ in range(3):
        session.answer(grade_of(session.current, 3))
    assert session.current.item_id == "a"
    session.answer(grade_of(session.current, 3))
    session.answer(grade_of(session.current, 4))
    assert session.current is None
    summary = session.summary()
    assert (summary.items, summary.grades, summary.repeats, summary.again, summary.seconds) == (5, 6, 1, 1, 6.0)
    assert summary.again_rate == 1 / 6


def test_undo_restores_card_state_and_position() -> None:
    session = ReviewSession([card("a"), card("b")])
    graded = grade_of(session.current, 1)
    session.answer(graded)
    assert list(session.order) == ["b", "a"]
    undone = session.undo()
    assert undone is graded
    assert list(session.order) == ["a", "b"]
    assert session.current.state == ItemState()
    assert session.undo() is None


def test_suspend_drops_every_copy_of_the_card() -> None:
    session = ReviewSession([card("a"), card("b")])
    session.answer(grade_of(session.current, 1))
    session.answer(grade_of(session.current, 1))  # b fails too: order is now [a, b]
    assert session.drop_current().item_id == "a"
    assert list(session.order) == ["b"]


def test_a_grade_that_was_not_saved_is_withdrawn_and_its_card_comes_next() -> None:
    session = ReviewSession([card(x) for x in "abcd"])
    first = grade_of(session.current, 3)
    session.answer(first)
    failed = grade_of(session.current, 1)  # b: Again, so it is also requeued
    session.answer(failed)
    assert list(session.order) == ["c", "d", "b"]
    assert session.withdraw(failed) == 1
    assert session.given == [first]
    assert list(session.order) == ["c", "b", "d"]  # once, right after the card on screen
    assert session.cards["b"].state == failed.before
