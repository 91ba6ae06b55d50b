"""One item's leech standing, read with one statement (drill.store.leeches.standing: what every
grade's write reads, before and after it), is the standing the read of every item at once gives."""

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, update

from drill.schedule.leech import Standing
from drill.store.leeches import ITEMS, standing, standings
from drill.store.tables import item, review
from drill.study import Study

IDS = ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2")  # the small decks' items
KINDS = ("card", "pitch", "estimate", "coding")
START = datetime(2026, 1, 5, 9, tzinfo=UTC)
BUTTONS = st.integers(1, 4)


def a_review(buttons: st.SearchStrategy[int] = BUTTONS) -> st.SearchStrategy[tuple]:
    """(item, study day, minute of the day: ties happen, button, counted, repetitions before it)"""
    return st.tuples(
        st.sampled_from(IDS), st.integers(0, 12), st.integers(0, 2), buttons, st.booleans(), st.integers(0, 2)
    )


REVIEWS = st.lists(a_review(), max_size=40)


def review_row(item_id: str, day: int, minute: int, button: int, counted: bool, reps_before: int) -> dict:
    at = START + timedelta(days=day, minutes=minute)
    return {
        "item_id": item_id,
        "reviewed_at": at,
        "study_day": at.date(),
        "button": button,
        "quality": button + 1,
        "duration_ms": 1000,
        "counted": counted,
        "reps_before": reps_before,
        "interval_before": reps_before,
        "ease_before": 2.5,
        "reps_after": 0 if button == 1 else reps_before + 1,
        "interval_after": 1,
        "ease_after": 2.5,
    }


def test_one_items_standing_is_its_standing_among_every_items(small_paths, clock) -> None:
    study = Study.open(small_paths, clock)
    study.drain()

    @settings(max_examples=60, deadline=None)
    @given(kinds=st.lists(st.sampled_from(KINDS), min_size=len(IDS), max_size=len(IDS)), rows=REVIEWS)
    def agrees(kinds: list[str], rows: list[tuple]) -> None:
        with study.engine.connect() as connection:
            transaction = connection.begin()  # rolled back: each example starts from no reviews
            for item_id, kind in zip(IDS, kinds, strict=True):
                connection.execute(update(item).where(item.c.id == item_id).values(kind=kind))
            for row in rows:
                connection.execute(insert(review), review_row(*row))  # the triggers count the lapses
            every = standings(connection)
            described = {row.id: (row.kind, row.topic) for row in connection.execute(ITEMS)}
            for item_id in IDS:
                assert standing(connection, item_id) == every.get(item_id, Standing(item_id, *described[item_id]))
            assert standing(connection, "no-such-item") == Standing("no-such-item", "card")
            transaction.rollback()

    try:
        agrees()
    finally:
        study.close()


def test_the_standings_compared_include_lapses_and_failed_runs(small_paths, clock) -> None:
    """The comparison above is not vacuous: one history gives a card lapses and a drill a failed run
    (a card's Agains make no run), both read alike either way."""
    study = Study.open(small_paths, clock)
    study.drain()
    try:
        with study.engine.connect() as connection:
            connection.execute(update(item).where(item.c.id == "i-2").values(kind="coding"))
            for day in range(3):
                connection.execute(insert(review), review_row("m-1", day, 0, 1, True, 1))
                connection.execute(insert(review), review_row("i-2", day, 0, 1, True, 0))
            connection.execute(insert(review), review_row("i-2", 3, 0, 3, False, 0))  # a repeat's pass: no reset
            every = standings(connection)
            assert standing(connection, "m-1") == every["m-1"] == Standing("m-1", "card", every["m-1"].topic, 3, 0)
            assert standing(connection, "i-2") == every["i-2"] == Standing("i-2", "coding", every["i-2"].topic, 0, 3)
            connection.rollback()
    finally:
        study.close()


def test_a_pass_never_raises_a_leech_level(small_paths, clock) -> None:
    """What lets a grade's write skip reading the standing around it (drill.study.leeches.can_flag):
    a review that is not an Again, counted or not, on any day of any history, flags no item."""
    study = Study.open(small_paths, clock)
    study.drain()

    @settings(max_examples=60, deadline=None)
    @given(
        kinds=st.lists(st.sampled_from(KINDS), min_size=len(IDS), max_size=len(IDS)),
        rows=REVIEWS,
        added=a_review(buttons=st.integers(2, 4)),
    )
    def never_flags(kinds: list[str], rows: list[tuple], added: tuple) -> None:
        with study.engine.connect() as connection:
            transaction = connection.begin()
            for item_id, kind in zip(IDS, kinds, strict=True):
                connection.execute(update(item).where(item.c.id == item_id).values(kind=kind))
            for row in rows:
                connection.execute(insert(review), review_row(*row))
            before = standing(connection, added[0])
            connection.execute(insert(review), review_row(*added))
            after = standing(connection, added[0])
            assert not any(after.flagged_after(before, threshold) for threshold in range(1, 9))
            transaction.rollback()

    try:
        never_flags()
    finally:
        study.close()
