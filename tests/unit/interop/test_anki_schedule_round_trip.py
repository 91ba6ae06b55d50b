"""The round trip of issue 22: drill exports an .apkg, the real Anki engine imports it and its v3
scheduler answers the cards, Anki exports the collection, and drill imports that file: each item
then has the schedule drill computes when the same answers are given in drill itself (a second
home, graded at the same moments with the same buttons), and `drill list` and card info show
the reviews at Anki's times.

Anki stamps an answer with the machine's clock, which a test cannot set; so after answering, the
test moves each row of Anki's review log back by whole days (its id is the answer's time), as if
the answers had come over the past three weeks. drill reads the times from those ids either way.
"""

from __future__ import annotations

from dataclasses import astuple
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers.clock import Clock
from helpers.content import TestPaths

from drill.config import Config
from drill.interop.anki_export import export_anki
from drill.interop.anki_import import import_anki_package
from drill.store.browse import item_info, item_row
from drill.store.review_log import from_ms
from drill.study import Study
from drill.study.writes import write_grade

pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")

DAY_MS = 86_400_000
# Per item, the answers given in Anki: (days ago, button 1 Again to 4 Easy, seconds on the card).
ANSWERS = {
    "m-1": [(20, 3, 6), (14, 3, 4), (3, 4, 2)],
    "m-2": [(20, 1, 20), (20, 3, 9), (19, 3, 5), (5, 2, 8)],  # a lapse, then a same-day repeat
    "c-1": [(10, 3, 3), (0, 1, 15), (0, 3, 4)],
    "c-2": [(0, 4, 1)],
    "i-2": [(7, 2, 30), (6, 1, 12), (1, 3, 7)],
}  # i-1 is never answered


def open_study(paths: TestPaths, scheduler: str, clock: Clock) -> Study:
    paths.ensure()
    paths.config.write_text(f'scheduler = "{scheduler}"\nfuzz = false\n')
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def answer_in_anki(desk, tmp_path: Path) -> dict[str, list[tuple[int, int, int]]]:
    """Give ANSWERS in Anki, oldest first, and move each row back its days; per item, the rows
    as Anki's log holds them: (time in ms, button, milliseconds on the card)."""
    answers = sorted(
        ((days, item_id, ease, seconds) for item_id, given in ANSWERS.items() for days, ease, seconds in given),
        key=lambda answer: -answer[0],
    )
    logged: dict[str, list[tuple[int, int, int]]] = {item_id: [] for item_id in ANSWERS}
    for days, item_id, ease, seconds in answers:
        (note_id,) = desk.col.find_notes(f'"Id:{item_id}"')
        ms = desk.answer(desk.cards_of(note_id)[0], ease, seconds)
        moved = ms - days * DAY_MS
        while days and desk.col.db.scalar("SELECT count() FROM revlog WHERE id = ?", moved):  # (in one millisecond)
            moved += 1
        desk.col.db.execute("UPDATE revlog SET id = ? WHERE id = ?", moved, ms)
        logged[item_id].append((moved, ease, desk.col.db.scalar("SELECT time FROM revlog WHERE id = ?", moved)))
    return logged


@pytest.mark.slow
@pytest.mark.parametrize(("scheduler", "kind"), [("sm2", "colpkg"), ("fsrs", "apkg-legacy")])
def test_answers_given_in_anki_leave_the_schedule_drill_gives_the_same_answers(
    small_paths: TestPaths, tmp_path: Path, scheduler: str, kind: str
) -> None:
    from helpers.anki_desk import AnkiDesk

    now = Clock(datetime.now(UTC))
    study = open_study(small_paths, scheduler, now)
    export_anki(small_paths, tmp_path / "drill.apkg")
    (tmp_path / "anki").mkdir()
    desk = AnkiDesk(tmp_path / "anki" / "collection.anki2")
    try:
        desk.import_package(tmp_path / "drill.apkg")
        logged = answer_in_anki(desk, tmp_path)
        package = desk.export(tmp_path / f"phone.{kind}", kind)
    finally:
        desk.close()

    graded_in_drill = TestPaths(tmp_path / "graded-in-drill", small_paths.decks)
    clock = Clock(now.now - timedelta(days=30))
    expected = open_study(graded_in_drill, scheduler, clock)
    for item_id, ms, ease, duration in sorted(
        ((item_id, *row) for item_id, rows in logged.items() for row in rows), key=lambda row: row[1]
    ):
        clock.now = from_ms(ms)
        write_grade(expected, expected.reviews.grade(expected.reviews.cards([item_id])[0], ease, duration))
    clock.now = now.now

    try:
        report = import_anki_package(study, package)
        assert (report.drill_reviews, report.drill_items, report.added) == (14, 5, 14)
        for item_id in ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2"):
            imported, graded = study.reviews.cards([item_id])[0].state, expected.reviews.cards([item_id])[0].state
            assert astuple(imported) == pytest.approx(astuple(graded), rel=1e-9), item_id
            assert item_row(study.engine, item_id, 8) == item_row(expected.engine, item_id, 8)  # `drill list`
            shown = item_info(study.engine, item_id, 8)
            assert shown is not None and shown == item_info(expected.engine, item_id, 8)  # card info
            assert [(entry.reviewed_at, entry.button, entry.seconds) for entry in shown.reviews] == [
                (from_ms(ms), ease, duration / 1000) for ms, ease, duration in logged.get(item_id, [])
            ]
        assert study.reviews.cards(["i-1"])[0].state.due_day is None  # never answered: still new
        assert study.reviews.cards(["m-1"])[0].state.interval > 1  # three answers over three weeks moved it on
    finally:
        study.close()
        expected.close()
