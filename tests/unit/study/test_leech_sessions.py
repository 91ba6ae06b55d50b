"""Leeches judged across study days and acted on when the session ends: same-day repeats never
count, a leech is never suspended in the middle of the session that flagged it, a suspended leech
stays listed, and imported history flags and suspends as reviews do."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from drill.cli import main
from drill.interop.history_csv import import_history, merge_reviews
from drill.interop.history_format import card_id
from drill.paths import Paths
from drill.schedule.leech import FAILED_RUN
from drill.stats.report import load_report
from drill.store.browse import item_rows
from drill.store.leeches import leech_ids, standing
from drill.store.review_log import StagedReview, to_ms
from drill.study import Study

HEADER = "card_id,review_time,review_rating,review_duration"


def open_study(paths, clock, **settings) -> Study:
    paths.ensure()
    paths.config.write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
    return Study.open(paths, clock)


def as_family(study: Study, item_id: str) -> None:
    """Make a small deck's card an estimation family, for the failed-days rule."""
    with study.engine.begin() as connection:
        connection.execute(text("UPDATE item SET kind = 'estimate' WHERE id = :id"), {"id": item_id})


def grade(study: Study, item_id: str, button: int) -> None:
    card = study.reviews.cards([item_id])[0]
    study.reviews.save_grade(study.reviews.grade(card, button, 1000))
    study.drain()


def suspended(study: Study, item_id: str) -> bool:
    with study.engine.connect() as connection:
        return bool(connection.execute(text("SELECT suspended FROM item WHERE id = :id"), {"id": item_id}).scalar())


def listed(study: Study, item_id: str) -> dict[str, bool]:
    """Where the leech shows: `drill list --leech` and the browser (item rows), the stats' list."""
    rows = {row.item_id: row for row in item_rows(study.engine, study.config.leech_threshold)}
    stats = load_report(study).steering
    with study.engine.connect() as connection:
        ids = leech_ids(connection, study.config.leech_threshold)
    return {
        "leech_ids": item_id in ids,
        "browser": rows[item_id].leech,
        "stats": any(leech.item_id == item_id for leech in stats.leeches),
    }


def test_a_pass_is_saved_without_reading_the_standing_and_an_again_reads_it_around_its_write(
    small_paths, clock, monkeypatch
) -> None:
    read = []
    monkeypatch.setattr(
        "drill.study.leeches.standing",
        lambda connection, item_id: read.append(item_id) or standing(connection, item_id),
    )
    study = open_study(small_paths, clock)
    for button in (3, 2, 4):
        grade(study, "m-1", button)
    assert read == []
    clock.now += timedelta(days=1)
    grade(study, "m-1", 1)
    assert read == ["m-1", "m-1"]
    study.close()


def test_failing_a_family_again_and_again_in_one_session_is_one_failed_day(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    as_family(study, "i-2")
    flagged = []
    study.on_leech(flagged.append)
    for _ in range(FAILED_RUN + 2):  # the first grade of the day counts; the repeats never do
        grade(study, "i-2", 1)
    with study.engine.connect() as connection:
        assert standing(connection, "i-2").failed_run == 1
    study.leeches.end_session().result()
    assert flagged == [] and not suspended(study, "i-2")
    study.close()


def test_a_family_failed_on_four_study_days_is_a_leech_though_each_day_a_repeat_passed(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    as_family(study, "i-2")
    flagged = []
    study.on_leech(flagged.append)
    for day in range(FAILED_RUN):
        clock.now += timedelta(days=1)
        grade(study, "i-2", 1)  # the day's counted grade: failed
        assert not suspended(study, "i-2")
        grade(study, "i-2", 3)  # a repeat that passes it today: the day stays failed
        assert len(flagged) == (1 if day == FAILED_RUN - 1 else 0)
    [flag] = flagged
    assert (flag.standing.failed_run, flag.suspends) == (FAILED_RUN, True)
    assert "problems solved" in flag.notice() and "(e" not in flag.notice()
    assert not suspended(study, "i-2")  # answered right in the session: still not suspended mid-session
    assert study.leeches.end_session().result() == ["i-2"]
    assert suspended(study, "i-2")
    assert listed(study, "i-2") == {"leech_ids": True, "browser": True, "stats": True}
    study.close()


def test_a_suspended_card_leech_stays_listed_and_closing_ends_the_session(
    small_paths, clock, monkeypatch, capsys
) -> None:
    study = open_study(small_paths, clock, leech_threshold=2)
    for button in (3, 1, 3, 1):  # learned, lapsed, learned again, lapsed again: a leech at 2
        clock.now += timedelta(days=1)
        grade(study, "m-1", button)
    assert not suspended(study, "m-1")
    study.close()  # quitting ends the session
    study = open_study(small_paths, clock, leech_threshold=2)
    assert suspended(study, "m-1")
    assert listed(study, "m-1") == {"leech_ids": True, "browser": True, "stats": True}
    study.close()
    monkeypatch.setattr(Paths, "resolve", classmethod(lambda cls: small_paths))
    assert main(["list", "--leech", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert (row["id"], row["state"]["leech"], row["state"]["suspended"]) == ("m-1", True, True)


def lapsing_history(item_id: str, start_ms: int, lapses: int) -> list[tuple[int, int]]:
    """(time, rating) of a card learned and then lapsed `lapses` times, one review a day."""
    ratings = [3] + [1, 3] * lapses
    return [(start_ms + day * 86_400_000, rating) for day, rating in enumerate(ratings)]


@pytest.mark.parametrize(("action", "suspends"), [('"suspend"', True), ('"tag"', False)])
def test_an_imported_history_of_nine_lapses_is_acted_on_by_its_import(
    small_paths, clock, tmp_path: Path, action: str, suspends: bool
) -> None:
    study = open_study(small_paths, clock, leech_action=action, leech_threshold=8)
    start = to_ms(clock.now - timedelta(days=40))
    source = tmp_path / "history.csv"
    rows = [f"{card_id('m-1')},{ms},{rating},2000" for ms, rating in lapsing_history("m-1", start, 9)]
    source.write_text(HEADER + "\n" + "\n".join(rows) + "\n")
    import_history(study, source)
    with study.engine.connect() as connection:
        assert standing(connection, "m-1").lapses == 9
    assert suspended(study, "m-1") is suspends
    assert listed(study, "m-1") == {"leech_ids": True, "browser": True, "stats": True}
    study.close()


def test_an_anki_import_merges_through_the_same_rule(small_paths, clock) -> None:
    study = open_study(small_paths, clock, leech_threshold=8)
    start = to_ms(clock.now - timedelta(days=40))
    staged = [
        StagedReview("c-1", ms, rating, 2000, False, line)
        for line, (ms, rating) in enumerate(lapsing_history("c-1", start, 8), start=2)
    ]
    merge_reviews(study, staged)  # what import_anki_package hands the review log to
    assert suspended(study, "c-1")
    study.close()
