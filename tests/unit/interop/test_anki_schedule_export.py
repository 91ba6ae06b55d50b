"""drill export --anki --with-schedule: each card's schedule and review log in the package, as the
package's collection holds them and as the real Anki library imports them."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import genanki
import pytest
from helpers.clock import Clock
from helpers.content import TestPaths
from helpers.reviews import grade_first_in_queue, open_study

from drill.cli import main
from drill.interop.anki_export import export_anki
from drill.interop.anki_schedule import Schedules
from drill.store.schedules import item_schedules
from drill.store.writes import set_suspended
from drill.study import Study
from drill.study.writes import write_grade

# (days after the start, item, button, cram that kept the schedule): a lapse with its repeat, a
# first day's repeats, a cram grade, an item suspended after its review.
GRADES = [
    (0, "m-1", 3, False),
    (0, "c-1", 1, False),
    (0, "c-1", 3, False),
    (1, "m-1", 3, False),
    (1, "c-1", 3, False),
    (2, "i-1", 4, False),
    (7, "m-1", 3, False),
    (7, "c-1", 1, False),
    (7, "c-1", 3, False),
    (8, "m-1", 1, True),
]
# Today as the real Anki sees it (UTC, rollover at 4 am); the grades at noon of the days before.
TODAY = (datetime.now(UTC) - timedelta(hours=4)).date()
NOW = datetime.combine(TODAY, time(4, 30), UTC)
START = datetime.combine(TODAY - timedelta(days=9), time(12), UTC)


@pytest.fixture
def graded(small_paths: TestPaths) -> Study:
    """The small decks graded through GRADES, a minute apart within a day; i-1 then suspended; the
    clock at NOW."""
    clock = Clock(START)
    study = open_study(small_paths, clock)
    for index, (day, item_id, button, cram) in enumerate(GRADES):
        clock.now = START + timedelta(days=day, minutes=index, milliseconds=index)
        grade = study.reviews.grade(study.reviews.cards([item_id])[0], button, 1000 + index)
        write_grade(study, grade.kept_schedule() if cram else grade)
    set_suspended(study.engine, "i-1", True)
    clock.now = NOW
    yield study
    study.close()


def export(study: Study, target: Path) -> list[str]:
    schedules = Schedules(item_schedules(study.engine), study.today, study.config.rollover_hour)
    return export_anki(study.paths, target, schedules).lines()


def package_rows(apkg: Path, folder: Path, sql: str) -> list[tuple]:
    with zipfile.ZipFile(apkg) as archive:
        archive.extract("collection.anki2", folder)
    connection = sqlite3.connect(folder / "collection.anki2")
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


CARDS = """SELECT notes.guid, type, queue, due, ivl, factor, reps, lapses, cards.data FROM cards
    JOIN notes ON notes.id = cards.nid"""
REVLOG = """SELECT notes.guid, r.id, r.ease, r.ivl, r.lastIvl, r.factor, r.time, r.type FROM revlog AS r
    JOIN cards ON cards.id = r.cid JOIN notes ON notes.id = cards.nid ORDER BY r.id"""


def item_of(guid: str) -> str:
    return next(item for item in ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2") if genanki.guid_for(item) == guid)


def states(study: Study) -> dict[str, object]:
    return {item_id: schedule.state for item_id, schedule in item_schedules(study.engine).items()}


def test_the_package_holds_each_cards_schedule_and_review_log(graded: Study, tmp_path: Path) -> None:
    lines = export(graded, tmp_path / "drill.apkg")
    assert lines[-1].startswith("with schedules: 3 reviewed cards, 1 suspended, 10 reviews;")
    state = states(graded)
    cards = {item_of(row[0]): row[1:] for row in package_rows(tmp_path / "drill.apkg", tmp_path, CARDS)}
    m1 = state["m-1"]
    assert cards["m-1"][:7] == (
        2,
        2,
        (m1.due_day - TODAY).days,
        (m1.due_day - m1.last_review_day).days,
        round(m1.easiness * 1000),
        3,  # its grades but the cram one that kept the schedule
        0,
    )
    memory = json.loads(cards["m-1"][7])
    assert memory["s"] == m1.fsrs_stability and memory["d"] == m1.fsrs_difficulty
    assert memory["lrt"] == int((START + timedelta(days=7, minutes=6)).timestamp())  # the last counted grade
    assert cards["c-1"][1:2] + cards["c-1"][5:7] == (2, 5, 1)  # five grades, one lapse (day 7)
    assert cards["i-1"][:2] == (2, -1)  # suspended
    assert cards["m-2"] == (0, 0, 0, 0, 0, 0, 0, "")  # new: as genanki wrote it
    (crt, conf) = package_rows(tmp_path / "drill.apkg", tmp_path, "SELECT crt, conf FROM col")[0]
    assert crt == int(datetime.combine(TODAY, time(4), UTC).timestamp())  # the start of today's study day
    assert json.loads(conf)["schedVer"] == 2

    log = [(item_of(guid), *row) for guid, *row in package_rows(tmp_path / "drill.apkg", tmp_path, REVLOG)]
    assert [row[0] for row in log] == [item for _, item, _, _ in GRADES]
    assert [row[1] for row in log] == [
        int((START + timedelta(days=day, minutes=index, milliseconds=index)).timestamp() * 1000)
        for index, (day, *_rest) in enumerate(GRADES)
    ]
    assert [row[2] for row in log] == [button for _, _, button, _ in GRADES]
    assert [row[6] for row in log] == [1000 + index for index in range(len(GRADES))]
    # learn on the first day, review on a later day's first grade, relearn for its repeat, filtered for cram
    assert [row[7] for row in log] == [0, 0, 0, 1, 1, 0, 1, 1, 2, 3]
    # c-1's intervals: an Again keeps it due that day (0), its passing repeat gives SM-2's first step (1 day)
    c1 = [row for row in log if row[0] == "c-1"]
    assert [row[3] for row in c1] == [0, 1, 1, 0, 1] and [row[4] for row in c1] == [0, 0, 1, 1, 0]


def test_grades_at_one_millisecond_keep_unique_log_ids(small_paths: TestPaths, tmp_path: Path) -> None:
    clock = Clock(START)
    study = open_study(small_paths, clock)
    try:
        for item_id in ("m-1", "m-2", "c-1"):  # three items graded at the same millisecond (an imported log)
            write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], 3, 1000))
        export(study, tmp_path / "drill.apkg")
    finally:
        study.close()
    ids = [row[1] for row in package_rows(tmp_path / "drill.apkg", tmp_path, REVLOG)]
    first = int(START.timestamp() * 1000)
    assert ids == [first, first + 1, first + 2]


def test_without_the_option_every_card_is_new_and_the_log_empty(graded: Study, tmp_path: Path) -> None:
    lines = export_anki(graded.paths, tmp_path / "drill.apkg").lines()
    assert not any(line.startswith("with schedules") for line in lines)
    assert {row[1:] for row in package_rows(tmp_path / "drill.apkg", tmp_path, CARDS)} == {(0, 0, 0, 0, 0, 0, 0, "")}
    assert package_rows(tmp_path / "drill.apkg", tmp_path, "SELECT count(*) FROM revlog") == [(0,)]


def test_the_cli_exports_schedules_and_wants_anki_for_them(capsys, drill_home: Path, tmp_path: Path) -> None:
    assert main(["export", "--history", str(tmp_path / "h.csv"), "--with-schedule"]) == 2
    assert capsys.readouterr().err == "drill: --with-schedule goes with --anki PATH.apkg\n"
    item_id = grade_first_in_queue()
    assert main(["export", "--anki", str(tmp_path / "d.apkg"), "--with-schedule"]) == 0
    assert "with schedules: 1 reviewed card, 0 suspended, 1 review;" in capsys.readouterr().out
    (row,) = package_rows(tmp_path / "d.apkg", tmp_path, REVLOG)
    assert (row[0], row[2], row[6]) == (genanki.guid_for(item_id), 3, 1234)


def import_into_anki(collection, apkg: Path, with_scheduling: bool = True):
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    options = ImportAnkiPackageOptions(with_scheduling=with_scheduling, merge_notetypes=True)
    return collection.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg), options=options))


def test_the_real_anki_takes_the_schedules_on_a_first_import(graded: Study, tmp_path: Path) -> None:
    pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")
    from anki.collection import Collection

    # A collection made 100 days ago: Anki moves the package's due days onto its own day count.
    path = str(tmp_path / "anki" / "collection.anki2")
    (tmp_path / "anki").mkdir()
    collection = Collection(path)
    collection.db.execute("UPDATE col SET crt = crt - 100 * 86400")
    collection.close()
    collection = Collection(path)
    try:
        export(graded, tmp_path / "first.apkg")
        import_into_anki(collection, tmp_path / "first.apkg")
        today = collection.sched.today
        assert today >= 100
        state = states(graded)
        schedules = item_schedules(graded.engine)
        for item_id in ("m-1", "c-1", "i-1"):
            (card_id,) = collection.find_cards(f"Id:{item_id}")
            card = collection.get_card(card_id)
            ours = state[item_id]
            assert card.due == today + (ours.due_day - TODAY).days, item_id
            assert card.ivl == (ours.due_day - ours.last_review_day).days
            assert card.factor == round(ours.easiness * 1000)
            # Anki keeps FSRS's memory to 4 (stability) and 3 (difficulty) decimals, as 32-bit floats
            assert card.memory_state.stability == pytest.approx(ours.fsrs_stability, abs=1e-4)
            assert card.memory_state.difficulty == pytest.approx(ours.fsrs_difficulty, abs=1e-3)
            times = collection.db.list("SELECT id FROM revlog WHERE cid = ? ORDER BY id", card_id)
            assert times == [grade.ms for grade in schedules[item_id].grades]
        assert collection.get_card(collection.find_cards("Id:i-1")[0]).queue == -1
        new = collection.get_card(collection.find_cards("Id:m-2")[0])
        assert (new.type, new.queue, new.ivl) == (0, 0, 0)

        # Anki's limit: a card it has keeps its schedule, whatever a later package says.
        (m1,) = collection.find_cards("Id:m-1")
        before = collection.get_card(m1).due
        graded.clock.now = NOW + timedelta(days=40)
        write_grade(graded, graded.reviews.grade(graded.reviews.cards(["m-1"])[0], 4, 900))
        export(graded, tmp_path / "second.apkg")
        import_into_anki(collection, tmp_path / "second.apkg")
        assert collection.get_card(m1).due == before
    finally:
        collection.close()
