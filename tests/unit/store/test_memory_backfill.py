"""The FSRS memory before each review an older drill stored without it is filled in by the
background writer after the open: opening never waits for it, grades given meanwhile go between
two of its writes, its progress is said, and what it writes is what the synchronous fill wrote."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

from sqlalchemy import text

from drill.store import reschedule
from drill.study import Study

MEMORY = "SELECT id, item_id, fsrs_stability_before, fsrs_difficulty_before FROM review ORDER BY id"
UNFILL = "UPDATE review SET fsrs_stability_before = NULL, fsrs_difficulty_before = NULL"


def open_study(paths, clock) -> Study:
    paths.ensure()
    paths.config.write_text('scheduler = "fsrs"\nfuzz = false\n')
    return Study.open(paths, clock, background=True)  # as the app opens it


def rows(study: Study, query: str = MEMORY) -> list[tuple]:
    with study.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(query))]


def grade(study: Study, item_id: str, button: int):
    card = study.reviews.cards([item_id])[0]
    return study.reviews.save_grade(study.reviews.grade(card, button, 1000))


def an_older_store(study: Study, clock) -> tuple[list[tuple], list[str]]:
    """Grade four items over a few weeks, then drop the memory before each review as a drill
    before schema 7 left it; returns the rows as the grades wrote them, and the items."""
    items = study.reviews.queue()[:4]
    for button in (3, 1, 3, 4, 3):
        for item_id in items:
            grade(study, item_id, button).result()
        clock.now += timedelta(days=4)
    written = rows(study)
    with study.engine.begin() as connection:
        connection.execute(text(UNFILL))
    assert sorted(reschedule.reviews_without_memory(study.engine)) == sorted(items)
    return written, items


def test_opening_an_older_store_does_not_wait_for_the_backfill_which_fills_as_the_grades_did(
    monkeypatch, small_paths, clock
) -> None:
    study = open_study(small_paths, clock)
    written, items = an_older_store(study, clock)
    study.close()

    entered, release = threading.Event(), threading.Event()
    fill = reschedule.fill_memory_before
    monkeypatch.setattr(reschedule, "FILL_REVIEWS", 5)  # one item (four reviews to fill) per write
    order: list[str] = []

    def held_fill(engine, ids, scheduler):
        order.append("fill")
        entered.set()
        release.wait(10)  # the first write is held until the test lets it go
        return fill(engine, ids, scheduler)

    monkeypatch.setattr(reschedule, "fill_memory_before", held_fill)
    progress: list[tuple[str, int, int]] = []
    started = time.monotonic()
    study = open_study(small_paths, clock)
    opened_s = time.monotonic() - started
    try:
        study.on_history_progress(lambda *said: progress.append(said))
        assert study.backfill is not None and not study.backfill.finished.done()
        assert opened_s < 5  # it returned while the backfill's first write was held
        assert rows(study) != written
        assert entered.wait(10)
        graded = grade(study, items[0], 3)  # queued after the held write, before the next ones
        graded.add_done_callback(lambda _: order.append("grade"))
        release.set()
        assert study.backfill.finished.result(timeout=30) == 4
        graded.result()
        assert order == ["fill", "grade", "fill", "fill", "fill"]
        assert rows(study)[: len(written)] == written
        assert progress == [
            (reschedule.Backfill.WHAT, 4 * done, 16) for done in (1, 2, 3, 4)
        ]  # a first review has none
        assert reschedule.reviews_without_memory(study.engine) == []
    finally:
        release.set()
        study.close()


def test_the_background_fill_writes_what_the_synchronous_one_writes(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    _, items = an_older_store(study, clock)
    study.close()
    study = open_study(small_paths, clock)
    try:
        assert study.backfill is not None
        study.backfill.finished.result(timeout=30)
        background = rows(study)
        with study.engine.begin() as connection:
            connection.execute(text(UNFILL))
        assert reschedule.fill_memory_before(study.engine, items, "fsrs") == 4
        assert rows(study) == background
        assert all((row[2] is None) == (row[0] in first_reviews(study)) for row in background)
    finally:
        study.close()


def first_reviews(study: Study) -> set[int]:
    """Each item's first review: no memory before it."""
    return {row[0] for row in rows(study, "SELECT MIN(id) FROM review GROUP BY item_id")}


def test_an_up_to_date_store_starts_no_history_work(small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    item_id = study.reviews.queue()[0]
    grade(study, item_id, 3).result()
    study.close()
    study = open_study(small_paths, clock)
    try:
        assert study.backfill is None
    finally:
        study.close()


def test_quitting_stops_the_backfill_and_the_next_open_goes_on_with_it(monkeypatch, small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    written, _ = an_older_store(study, clock)
    study.close()

    monkeypatch.setattr(reschedule, "FILL_REVIEWS", 5)
    entered, release = threading.Event(), threading.Event()
    fill = reschedule.fill_memory_before

    def held_fill(engine, ids, scheduler):
        entered.set()
        release.wait(10)
        return fill(engine, ids, scheduler)

    monkeypatch.setattr(reschedule, "fill_memory_before", held_fill)
    study = open_study(small_paths, clock)
    backfill = study.backfill
    assert backfill is not None and entered.wait(10)
    threading.Timer(0.2, release.set).start()
    assert study.close(wait_s=5) == 0  # the app quitting: the write under way is made, no more
    assert backfill.finished.result(timeout=5) == 1
    assert len(reschedule.reviews_without_memory(study.engine)) == 3

    monkeypatch.setattr(reschedule, "fill_memory_before", fill)
    study = open_study(small_paths, clock)
    study.close()  # a command ending waits for the history work
    study = open_study(small_paths, clock)
    try:
        assert study.backfill is None
        assert rows(study) == written
    finally:
        study.close()


def test_a_command_waits_for_the_backfill_and_says_it_as_it_goes(monkeypatch, small_paths, clock) -> None:
    study = open_study(small_paths, clock)
    written, _ = an_older_store(study, clock)
    study.close()
    monkeypatch.setattr(reschedule, "FILL_REVIEWS", 5)  # one item (four reviews to fill) per write
    said: list[str] = []
    study = Study.open(small_paths, clock, say=said.append)  # as a command opens it
    try:
        assert study.backfill is not None and study.backfill.finished.done()
        assert rows(study) == written
        with study.engine.begin() as connection:
            connection.execute(text(UNFILL))
    finally:
        study.close()
    what = reschedule.Backfill.WHAT
    assert said == [  # each a tenth more of the way
        *(f"filling in {what}: {percent}% ({done} of 16 reviews)…" for percent, done in ((20, 4), (50, 8), (70, 12))),
        f"filling in {what}: 100% (16 of 16 reviews).",
    ]
    monkeypatch.setattr(reschedule, "FILL_REVIEWS", 16)  # all of it in one write: filled without a word
    said.clear()
    study = Study.open(small_paths, clock, say=said.append)
    try:
        assert said == [] and reschedule.reviews_without_memory(study.engine) == []
    finally:
        study.close()
