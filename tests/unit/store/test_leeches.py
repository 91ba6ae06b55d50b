"""Leeches: lapses counted from the stored reviews, the threshold and the action from config.toml,
failed runs of estimation families and coding drills, and the notice the app gives."""

from datetime import timedelta

import pytest
from sqlalchemy import text

from drill.schedule.leech import FAILED_RUN, Standing
from drill.store.leeches import leech_ids, standing
from drill.study import Study


def open_study(paths, clock, **settings) -> Study:
    paths.config.parent.mkdir(parents=True, exist_ok=True)
    paths.config.write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
    return Study.open(paths, clock)


def grade_on_a_new_day(study: Study, clock, item_id: str, button: int) -> None:
    clock.now += timedelta(days=1)
    card = study.reviews.cards([item_id])[0]
    study.reviews.save_grade(study.reviews.grade(card, button, 1000))
    study.drain()


def lapse(study: Study, clock, item_id: str) -> None:
    """Learn the item (Good), then fail it (Again) the next day: one lapse."""
    grade_on_a_new_day(study, clock, item_id, 3)
    grade_on_a_new_day(study, clock, item_id, 1)


def suspended(study: Study, item_id: str) -> bool:
    with study.engine.connect() as connection:
        return bool(connection.execute(text("SELECT suspended FROM item WHERE id = :id"), {"id": item_id}).scalar_one())


def test_reaching_the_threshold_says_so_and_suspends_the_item_when_the_session_ends(small_paths, clock) -> None:
    study = open_study(small_paths, clock, leech_threshold=3)
    flagged = []
    study.on_leech(flagged.append)
    grade_on_a_new_day(study, clock, "m-1", 1)  # Again on a new item: not a lapse, nothing learned yet
    lapse(study, clock, "m-1")
    lapse(study, clock, "m-1")
    assert flagged == [] and not suspended(study, "m-1")
    lapse(study, clock, "m-1")
    assert [(f.standing.item_id, f.standing.lapses, f.suspends) for f in flagged] == [("m-1", 3, True)]
    assert not suspended(study, "m-1")  # never in the middle of the session that flagged it
    assert study.leeches.end_session().result() == ["m-1"]
    assert suspended(study, "m-1")
    with study.engine.connect() as connection:
        assert leech_ids(connection, 3) == {"m-1"}
    study.close()


def test_tag_only_flags_and_warns_again_every_half_threshold(small_paths, clock) -> None:
    study = open_study(small_paths, clock, leech_threshold=4, leech_action='"tag"')
    flagged = []
    study.on_leech(flagged.append)
    for _ in range(8):
        lapse(study, clock, "c-1")
    assert [f.standing.lapses for f in flagged] == [4, 6, 8]
    study.leeches.end_session().result()
    assert not any(f.suspends for f in flagged) and not suspended(study, "c-1")
    study.close()


def test_repeats_on_the_same_day_and_hard_are_not_lapses(small_paths, clock) -> None:
    study = open_study(small_paths, clock, leech_threshold=2)
    grade_on_a_new_day(study, clock, "i-1", 3)
    grade_on_a_new_day(study, clock, "i-1", 2)  # Hard: passed, though it comes back today
    card = study.reviews.cards(["i-1"])[0]
    study.reviews.save_grade(study.reviews.grade(card, 1, 1000))  # a repeat today: not counted, so not a lapse
    study.drain()
    with study.engine.connect() as connection:
        assert standing(connection, "i-1").lapses == 0
    study.close()


def test_a_failed_run_counts_failed_days_since_the_last_passed_one(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    with study.engine.begin() as connection:  # i-2 as a coding drill, for the run rule
        connection.execute(text("UPDATE item SET kind = 'coding' WHERE id = 'i-2'"))
    flagged = []
    study.on_leech(flagged.append)
    grade_on_a_new_day(study, clock, "i-2", 1)
    grade_on_a_new_day(study, clock, "i-2", 3)  # a pass resets the run
    for _ in range(FAILED_RUN - 1):
        grade_on_a_new_day(study, clock, "i-2", 1)
    assert flagged == []
    grade_on_a_new_day(study, clock, "i-2", 1)
    assert [(f.standing.failed_run, f.standing.describe()) for f in flagged] == [(4, "failed 4 study days in a row")]
    study.close()


@pytest.mark.parametrize(
    ("kind", "lapses", "run", "leech"),
    [
        ("card", 7, 9, False),
        ("card", 8, 0, True),
        ("estimate", 0, 4, True),
        ("coding", 0, 3, False),
    ],
)
def test_what_makes_a_leech(kind, lapses, run, leech) -> None:
    assert Standing("x", kind, "t", lapses, run).is_leech(8) is leech


def test_the_app_names_the_leech_and_what_was_done(small_paths, clock) -> None:
    from drill.schedule.leech import Flagged
    from drill.tui.app import DrillApp
    from drill.tui.messages import LeechFlagged

    app = DrillApp(small_paths, clock=clock)
    shown = []
    app.notify = lambda message, **options: shown.append((message, options.get("title")))
    app._leech_flagged(LeechFlagged(Flagged(Standing("m-1", "card", "Roofline", 8, 0), True)))
    [(message, title)] = shown
    assert title == "Leech" and "“Roofline”" in message and "lapsed 8 times" in message and "suspended" in message


def fail_every_day(study: Study, clock, item_id: str, times: int) -> None:
    for _ in range(times):
        grade_on_a_new_day(study, clock, item_id, 1)


async def test_a_leech_estimation_family_opens_with_a_worked_example(small_paths, clock) -> None:
    from helpers.content import estimates_only
    from helpers.screens import open_review
    from textual.widgets import Markdown

    from drill.tui.app import DrillApp

    estimates_only(small_paths, "kv-cache.toml")
    study = open_study(small_paths, clock, leech_action='"tag"')  # suspended, it would not come up at all
    [item_id] = study.reviews.queue()
    fail_every_day(study, clock, item_id, FAILED_RUN)
    assert study.reviews.cards([item_id])[0].leech == "failed 4 study days in a row"
    study.close()
    clock.now += timedelta(days=1)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        example = screen.view.query_one("#worked-example", Markdown)
        assert example.display and "A leech" in example.source and "Answer: `" in example.source
        assert screen.view.query_one("#prompt", Markdown).source == screen.view.problem.prompt


def test_a_leech_coding_drill_invites_the_hints_first(small_paths, clock) -> None:
    from dataclasses import replace

    from drill.tui.review.coding_card import drill_invitation

    study = open_study(small_paths, clock)
    card = replace(study.reviews.cards(["m-1"])[0], kind="coding", target_seconds=600)
    assert "A leech" not in drill_invitation(card)
    assert "open the hints first" in drill_invitation(replace(card, leech="failed 4 study days in a row"))
    study.close()


def test_the_stats_list_leeches_and_count_cram_reviews(small_paths, clock) -> None:
    from drill.stats.report import load_report

    study = open_study(small_paths, clock, leech_threshold=2, leech_action='"tag"')
    lapse(study, clock, "m-2")
    lapse(study, clock, "m-2")
    card = study.reviews.cards(["c-1"])[0]
    study.reviews.save_grade(study.reviews.grade(card, 3, 1000).kept_schedule())
    study.drain()
    figures = load_report(study).steering.model_dump(mode="json")
    study.close()
    assert figures == {
        "cram_reviews": 1,
        "cram_rescheduled": 0,
        "leech_count": 1,
        "leeches": [
            {"id": "m-2", "kind": "card", "topic": "Topic", "lapses": 2, "failed_run": 0, "why": "lapsed 2 times"}
        ],
    }


def test_lapses_are_read_from_the_items_and_cram_reviews_from_their_partial_index(small_paths, clock) -> None:
    """Lapses come from the items' counters, and the cram query's WHERE must stay its index's: else a
    million reviews are read."""
    from drill.store.leeches import LAPSES

    study = open_study(small_paths, clock)
    with study.engine.connect() as connection:
        lapses = connection.execute(
            text("EXPLAIN QUERY PLAN " + str(LAPSES.compile(compile_kwargs={"literal_binds": True})))
        ).all()
        cram = connection.execute(
            text("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM review WHERE cram = TRUE AND study_day >= '2026-01-01'")
        ).all()
    study.close()
    assert "SCAN item" in str(lapses) and "review" not in str(lapses) and "ix_review_cram" in str(cram)
