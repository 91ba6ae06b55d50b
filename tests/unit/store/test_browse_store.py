"""The card browser's reads and the in-memory filter: each item's state (due, interval, ease,
reviews, lapses, suspended, leech), one item's whole history, forget (back to new, history kept),
unknown ids, and search and filters over the rows."""

from dataclasses import replace
from datetime import timedelta

from helpers.screen_steps import answer_estimate, finish_drill, use_content
from sqlalchemy import text

from drill.store.browse import ItemRow, item_info, item_row, item_rows, unknown_ids
from drill.store.browse_filter import SORT_KEYS, ItemFilter, ItemIndex, ItemSort
from drill.store.writes import set_suspended
from drill.study import Study
from drill.study.writes import write_grade


def open_study(paths, clock, settings: str = "") -> Study:
    paths.ensure()
    paths.config.write_text(settings)
    return Study.open(paths, clock)


def grade(study: Study, item_id: str, button: int, **said) -> None:
    write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 12_000, **said))


def next_day(clock) -> None:
    clock.now += timedelta(days=1)


def rows_by_id(study: Study) -> dict[str, ItemRow]:
    return {row.item_id: row for row in item_rows(study.engine, study.config.leech_threshold)}


def test_each_row_carries_the_items_state(small_paths, clock) -> None:
    study = open_study(small_paths, clock, "leech_threshold = 1\n")
    grade(study, "m-1", 3)
    next_day(clock)
    grade(study, "m-1", 1)  # a lapse: Again on a learned item, relearning today
    grade(study, "m-1", 3)  # the repeat that passes it today
    grade(study, "c-1", 4)
    set_suspended(study.engine, "i-2", True)
    rows = rows_by_id(study)
    today = study.today
    assert list(rows) == ["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"]
    m1, c1, i2 = rows["m-1"], rows["c-1"], rows["i-2"]
    assert (m1.reviews, m1.lapses, m1.leech, m1.suspended) == (3, 1, True, False)
    assert m1.due == today + timedelta(days=m1.interval) and m1.interval >= 1
    assert (c1.reviews, c1.lapses, c1.leech) == (1, 0, False)
    assert c1.due == today + timedelta(days=c1.interval) and c1.interval >= 1
    assert c1.easiness > 2.5 and c1.stability is not None
    assert (i2.suspended, i2.is_new, i2.due, i2.interval, i2.stability) == (True, True, None, 0, None)
    assert c1.state_json() == {
        "due": c1.due.isoformat(),
        "interval": c1.interval,
        "reviews": 1,
        "lapses": 0,
        "suspended": False,
        "leech": False,
    }
    assert (
        item_row(study.engine, "m-1", study.config.leech_threshold) == m1
        and item_row(study.engine, "nope", study.config.leech_threshold) is None
    )
    study.close()


def test_forget_puts_an_item_back_to_new_and_keeps_its_history(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    grade(study, "m-1", 3)
    next_day(clock)
    grade(study, "m-1", 4)
    assert "m-1" not in study.reviews.queue()  # seen, not due
    study.reviews.save_forget("m-1")
    study.drain()
    with study.engine.connect() as connection:
        state = connection.execute(
            text(
                """SELECT repetitions, interval, easiness, due_day, last_review_day, fsrs_stability, fsrs_difficulty,
            fsrs_due_day FROM item WHERE id = 'm-1'"""
            )
        ).one()
        reviews = connection.execute(text("SELECT COUNT(*) FROM review WHERE item_id = 'm-1'")).scalar_one()
    assert tuple(state) == (0, 0, 2.5, None, None, None, None, None)
    assert reviews == 2
    row = item_row(study.engine, "m-1", study.config.leech_threshold)
    assert (row.is_new, row.reviews) == (True, 2)
    assert [entry.button for entry in item_info(study.engine, "m-1", study.config.leech_threshold).reviews] == [3, 4]
    assert "m-1" in study.reviews.queue()  # new again: it comes up with today's new items
    study.close()


def test_item_info_holds_every_review_with_what_was_said(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    grade(study, "c-2", 1, typed_answer="a guess", ticked=(0,))
    grade(study, "c-2", 3)  # the same day's repeat: logged, moves nothing more
    info = item_info(study.engine, "c-2", study.config.leech_threshold)
    first, repeat = info.reviews
    assert (first.button, first.seconds, first.counted, first.typed_answer, first.ticked) == (
        1,
        12.0,
        True,
        "a guess",
        (0,),
    )
    assert first.interval_after == 0  # Again: due again today
    assert (repeat.button, repeat.counted, repeat.interval_after) == (3, False, 1)
    assert first.reviewed_at.tzinfo is not None and first.reviewed_at == clock.now
    assert info.row.prompt == "Prompt of c-2?" and info.row.answer == "Answer of c-2."
    assert info.estimates == () and info.drills == ()
    assert item_info(study.engine, "nope", study.config.leech_threshold) is None
    study.close()


def test_item_info_holds_estimation_and_drill_attempts(small_paths, clock) -> None:
    use_content(small_paths, problems=("weights-memory",), drills=("dpo-loss",))
    study = open_study(small_paths, clock)
    estimate = study.reviews.cards(["estimate:weights-memory"])[0]
    answer_estimate(study, estimate, right=True)
    next_day(clock)
    answer_estimate(study, study.reviews.cards([estimate.item_id])[0], right=False)
    finish_drill(study, study.reviews.cards(["kernel:dpo-loss"])[0], passed=False)
    estimates = item_info(study.engine, "estimate:weights-memory", study.config.leech_threshold).estimates
    assert estimates[0].score == 1.0 and estimates[1].score < 0.5
    assert all(not attempt.in_round and attempt.seconds == 40.0 and attempt.unit for attempt in estimates)
    [drill] = item_info(study.engine, "kernel:dpo-loss", study.config.leech_threshold).drills
    assert (drill.status, drill.passed, drill.failed, drill.hints_used, drill.seconds) == ("fail", 2, 7, 3, 600.0)
    study.close()


def test_unknown_ids_are_those_no_item_has(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    assert unknown_ids(study.engine, ["m-1", "nope", "c-2", "gone", "nope"]) == ["nope", "gone"]
    assert unknown_ids(study.engine, []) == []
    study.close()


def row(item_id: str, **changes) -> ItemRow:
    plain = ItemRow(
        item_id,
        "card",
        "memory",
        "Topic",
        f"Prompt of {item_id}?",
        f"Answer of {item_id}.",
        "s",
        None,
        0,
        2.5,
        None,
        0,
        0,
        False,
        False,
    )
    return replace(plain, **changes)


def test_search_and_filters_keep_the_matching_rows_in_order(clock) -> None:
    today = clock.now.date()
    index = ItemIndex(
        [
            row("m-1", topic="KV cache", due=today, interval=3),
            row("m-2", answer="Uses RING all-reduce.", suspended=True, due=today),
            row("c-1", block="compute", kind="pitch", leech=True, due=today + timedelta(days=2)),
            row("c-2", block="compute", kind="estimate", due=today - timedelta(days=1)),
        ]
    )

    def ids(**choice) -> list[str]:
        return [kept.item_id for kept in index.select(ItemFilter(**choice), today)]

    assert ids() == ["m-1", "m-2", "c-1", "c-2"]
    assert ids(search="kv CACHE") == ["m-1"]  # topic, any case
    assert ids(search="ring") == ["m-2"]  # answer
    assert ids(search="prompt of c") == ["c-1", "c-2"]  # prompt
    assert ids(search="  C-2 ") == ["c-2"]  # id, trimmed
    assert ids(block="compute") == ["c-1", "c-2"]
    assert ids(kind="pitch") == ["c-1"]
    assert ids(suspended=True) == ["m-2"]
    assert ids(leech=True) == ["c-1"]
    assert ids(due=True) == ["m-1", "c-2"]  # due today or overdue, and not suspended
    assert ids(block="compute", due=True) == ["c-2"]
    assert ids(search="nothing like it") == []
    index.replace(row("m-2", topic="Ring all-reduce", suspended=False))
    assert ids(suspended=True) == [] and ids(search="ring all") == ["m-2"]


def test_sorting_by_a_column_either_way_keeps_content_order_among_ties(clock) -> None:
    today = clock.now.date()
    rows = [
        row("m-1", prompt="b question", due=today + timedelta(days=3), reviews=2, stability=4.0),
        row("m-2", prompt="A question", reviews=0),  # new: after every due day, no stability
        row("c-1", prompt="c question", due=today - timedelta(days=1), reviews=2, suspended=True, stability=9.0),
        row("c-2", prompt="a second", due=today, reviews=5, leech=True),
    ]

    def ids(column: str | None, descending: bool = False) -> list[str]:
        return [kept.item_id for kept in ItemSort(column, descending).apply(rows)]

    assert ids(None) == ["m-1", "m-2", "c-1", "c-2"]
    assert ids("question") == ["m-2", "c-2", "m-1", "c-1"]  # any case
    assert ids("due") == ["c-1", "c-2", "m-1", "m-2"] and ids("due", True) == ["m-2", "m-1", "c-2", "c-1"]
    assert ids("revs") == ["m-2", "m-1", "c-1", "c-2"]  # the tie at 2 in content order
    assert ids("revs", True) == ["c-2", "m-1", "c-1", "m-2"]  # and so turned round
    assert ids("stab") == ["m-1", "c-1", "m-2", "c-2"]  # none last
    assert ids("flag", True) == ["c-1", "c-2", "m-1", "m-2"]  # suspended, then leeches
    assert ItemSort().by("due") == ItemSort("due") and ItemSort("due").by("due") == ItemSort("due", True)
    assert ItemSort("due", True).by("revs") == ItemSort("revs")
    assert set(SORT_KEYS) >= {"question", "id", "kind", "block", "topic", "due", "ivl", "ease", "revs", "laps"}
