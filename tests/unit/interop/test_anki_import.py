"""Anki's notes and review log into drill, with the real Anki library on the other side: reviews
of drill's own notes come back to their items with their times, buttons and durations (once, however
often the file is imported), Anki's Forget is a forget, filtered-deck answers are cram grades, notes
written in Anki become cards of a user deck with their history, and the file is never changed."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers.clock import Clock
from helpers.content import TestPaths
from sqlalchemy import func, select

from drill.config import Config
from drill.content.decks import load_decks
from drill.interop.anki_export import export_anki
from drill.interop.anki_import import import_anki_package
from drill.interop.errors import InteropError
from drill.schedule.grading import ItemState
from drill.store.browse import item_info
from drill.store.review_log import from_ms
from drill.store.tables import review
from drill.study import Study
from drill.study.writes import write_grade

pytest.importorskip("anki", reason="the anki test extra has no wheel for this platform")


@pytest.fixture
def study(small_paths: TestPaths) -> Iterator[Study]:
    """drill on the six cards of small_paths, its clock now: Anki stamps answers with the real time."""
    small_paths.ensure()
    small_paths.config.write_text("fuzz = false\n")
    study = Study(small_paths, Config.load(small_paths.config), Clock(datetime.now(UTC)))
    study.sync()
    yield study
    study.close()


@pytest.fixture
def desk(study: Study, tmp_path: Path) -> Iterator[Any]:
    """A real Anki collection that imported drill's export (its cards not yet answered)."""
    from helpers.anki_desk import AnkiDesk

    export_anki(study.paths, tmp_path / "drill.apkg")
    (tmp_path / "phone").mkdir()
    desk = AnkiDesk(tmp_path / "phone" / "collection.anki2")
    desk.import_package(tmp_path / "drill.apkg")
    yield desk
    desk.close()


def card_of(desk: Any, item_id: str) -> int:
    """The Anki card of a drill item."""
    (note_id,) = desk.col.find_notes(f'"Id:{item_id}"')
    return desk.cards_of(note_id)[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def history(study: Study, item_id: str) -> list[tuple[datetime, int, float, bool, bool]]:
    info = item_info(study.engine, item_id, study.config.leech_threshold)
    assert info is not None
    return [(entry.reviewed_at, entry.button, entry.seconds, entry.counted, entry.cram) for entry in info.reviews]


def stored_reviews(study: Study) -> int:
    with study.engine.connect() as connection:
        return connection.execute(select(func.count()).select_from(review)).scalar_one()


def test_reviews_given_in_anki_come_back_to_drills_items_once_and_the_file_is_untouched(
    study: Study, desk: Any, tmp_path: Path
) -> None:
    answered = [
        (desk.answer(card_of(desk, "m-1"), 3, seconds=4), 3),
        (desk.answer(card_of(desk, "c-1"), 1, seconds=12), 1),
        (desk.answer(card_of(desk, "c-1"), 3, seconds=2), 3),
    ]
    package = desk.export(tmp_path / "phone.colpkg", "colpkg")
    before = digest(package)

    heard: list[tuple[str, int, int]] = []
    report = import_anki_package(study, package, progress=lambda *step: heard.append(step))

    assert digest(package) == before
    assert heard == [("reading", 3, 3), ("importing", 3, 3)]
    assert report.lines()[:3] == [
        f"{package} (collection.anki21b): 6 notes, 3 review-log rows",
        "3 reviews of 2 drill items, 0 new cards, 0 manual rows skipped",
        "added 3 reviews; their items' schedules were replayed from their whole history",
    ]
    assert (report.added, report.duplicates, report.cards) == (3, 0, None)
    assert history(study, "m-1") == [(from_ms(answered[0][0]), 3, 4.0, True, False)]
    assert history(study, "c-1") == [
        (from_ms(answered[1][0]), 1, 12.0, True, False),
        (from_ms(answered[2][0]), 3, 2.0, False, False),  # a second answer the same day: a same-day repeat
    ]
    assert study.reviews.cards(["m-1"])[0].state.repetitions == 1

    again = import_anki_package(study, package)
    assert (again.added, again.duplicates, stored_reviews(study)) == (0, 3, 3)
    assert "skipped 3 already in the store (same item and time)" in again.lines()


def test_drills_own_grades_exported_with_their_schedule_come_back_once_with_the_phones(
    study: Study, tmp_path: Path
) -> None:
    from helpers.anki_desk import AnkiDesk

    from drill.interop.anki_schedule import Schedules
    from drill.store.schedules import item_schedules

    clock = study.clock
    assert isinstance(clock, Clock)
    now, clock.now = clock.now, clock.now - timedelta(days=3)
    for item_id, button in (("m-1", 3), ("c-1", 1), ("c-1", 3)):
        clock.now += timedelta(seconds=30)
        write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 2000))
    clock.now = now
    schedules = Schedules(item_schedules(study.engine), study.today, study.config.rollover_hour)
    export_anki(study.paths, tmp_path / "drill.apkg", schedules)
    (tmp_path / "phone").mkdir()
    desk = AnkiDesk(tmp_path / "phone" / "collection.anki2")
    try:
        desk.import_package(tmp_path / "drill.apkg", with_scheduling=True)
        answered = desk.answer(card_of(desk, "m-1"), 4, seconds=3)
        package = desk.export(tmp_path / "phone.colpkg", "colpkg")
    finally:
        desk.close()

    report = import_anki_package(study, package)

    assert (report.drill_reviews, report.drill_items, report.added, report.duplicates) == (4, 2, 1, 3)
    assert [entry[:3] for entry in history(study, "m-1")][-1] == (from_ms(answered), 4, 3.0)
    assert stored_reviews(study) == 4


def test_a_forget_in_anki_is_a_forget_set_due_date_is_skipped_and_a_filtered_deck_answer_is_cram(
    study: Study, desk: Any, tmp_path: Path
) -> None:
    desk.answer(card_of(desk, "m-1"), 3)
    desk.col.sched.set_due_date([card_of(desk, "m-1")], "5")
    desk.answer(card_of(desk, "c-1"), 4)
    desk.col.sched.schedule_cards_as_new([card_of(desk, "c-1")], restore_position=True, reset_counts=False)
    cram = desk.col.sched.get_or_create_filtered_deck(0)
    cram.name, cram.config.reschedule = "Cram", False
    cram.config.search_terms[0].search = '"Id:i-1"'
    desk.col.sched.add_or_update_filtered_deck(cram)
    desk.answer(card_of(desk, "i-1"), 4)
    package = desk.export(tmp_path / "phone.apkg", "apkg")

    report = import_anki_package(study, package)

    assert (report.manual_skipped, report.forgets, report.forgets_added, report.cram) == (1, 1, 1, 1)
    assert (report.drill_reviews, report.drill_items, report.added) == (3, 3, 3)
    assert study.reviews.cards(["m-1"])[0].state.repetitions == 1
    assert study.reviews.cards(["c-1"])[0].state == ItemState()  # forgotten after its answer: new again
    assert [entry[1:] for entry in history(study, "i-1")] == [(4, 0.0, False, True)]
    assert study.reviews.cards(["i-1"])[0].state == ItemState()  # a cram grade moves no schedule


def test_notes_written_in_anki_become_cards_of_a_user_deck_with_their_history(
    study: Study, desk: Any, tmp_path: Path
) -> None:
    zero = desk.add_note(["What does <b>ZeRO</b> shard?", "Optimizer state,<br>gradients, parameters"], "ML::Training")
    desk.add_note(["KV cache bytes per token?", "2 · layers · heads · dim · bytes"], "drill::memory")
    desk.add_note(["Ring all-reduce cost?", "2(n-1)/n · size"], "Default", ["block::communication"])
    reversed_note = desk.add_note(["TP", "tensor parallelism"], "ML", ["topic::tp"], "Basic (and reversed card)")
    cloze = desk.add_note(["A {{c1::KV}} cache"], "ML", [], "Cloze")
    zero_at = desk.answer(desk.cards_of(zero.id)[0], 3, seconds=7)
    forward, backward = desk.cards_of(reversed_note.id)
    desk.answer(forward, 4)
    desk.answer(backward, 1)  # the note's second card: not the drill card
    desk.answer(desk.cards_of(cloze.id)[0], 3)
    package = desk.export(tmp_path / "phone.apkg", "apkg")
    before = digest(package)

    without_block = import_anki_package(study, package)  # ZeRO and TP name no block: none goes in
    assert (without_block.cards, without_block.unblocked_notes, without_block.card_reviews) == (None, 2, 0)
    assert any("pass --block" in line for line in without_block.lines())
    assert not study.paths.user_decks.exists() or not list(study.paths.user_decks.iterdir())

    report = import_anki_package(study, package, block="training")

    assert digest(package) == before
    assert report.cards is not None and report.cards.added == 4
    published = report.model_dump(mode="json")  # what `drill import FILE.apkg --json` prints
    assert list(published)[:4] == ["source", "collection", "notes", "rows"]
    assert (published["cards"]["added"], published["duplicates"]) == (4, 0)
    assert (report.card_reviews, report.card_items, report.unimported_skipped) == (2, 2, 2)  # backward, cloze
    assert report.warnings == [f"{package}: note 11: a cloze note (Cloze); only front/back notes import; skipped"]
    cards = {loaded.item.prompt: loaded.item for loaded in load_decks([study.paths.user_decks]).items}
    assert {prompt: (item.block, item.topic) for prompt, item in cards.items()} == {
        "What does **ZeRO** shard?": ("training", "ML::Training"),
        "KV cache bytes per token?": ("memory", "phone"),
        "Ring all-reduce cost?": ("communication", "phone"),
        "TP": ("training", "tp"),
    }
    assert cards["What does **ZeRO** shard?"].answer == "Optimizer state,\ngradients, parameters"
    zero_id = cards["What does **ZeRO** shard?"].id
    assert history(study, zero_id) == [(from_ms(zero_at), 3, 7.0, True, False)]
    assert all(not item.id.startswith(("m-", "c-", "i-")) for item in cards.values())  # no copy of drill's cards

    zero["Back"] = "Optimizer state, gradients and parameters"
    desk.col.update_note(zero)
    shutil.copy(desk.export(tmp_path / "phone-2.apkg", "apkg"), tmp_path / "phone.apkg")
    edited = import_anki_package(study, package, block="training")
    assert edited.cards is not None and (edited.cards.updated, edited.cards.added) == (1, 0)
    assert (edited.added, edited.duplicates) == (0, 2)
    cards = {loaded.item.id: loaded.item for loaded in load_decks([study.paths.user_decks]).items}
    assert cards[zero_id].answer == "Optimizer state, gradients and parameters"
    assert len(history(study, zero_id)) == 1

    elsewhere = import_anki_package(study, tmp_path / "phone-2.apkg", block="training")  # no second copy
    assert elsewhere.cards is not None and (elsewhere.cards.added, elsewhere.cards.already_in_drill) == (0, 4)
    assert (elsewhere.card_reviews, elsewhere.added) == (2, 0)


def test_a_note_of_drills_note_type_is_its_item_by_the_id_field_even_with_another_guid(
    study: Study, desk: Any, tmp_path: Path
) -> None:
    copy = desk.add_note(["Prompt of c-2?", "Answer of c-2.", "", "c-2", "", ""], "drill::compute", [], "drill card")
    answered = desk.answer(desk.cards_of(copy.id)[0], 2, seconds=3)

    report = import_anki_package(study, desk.export(tmp_path / "phone.colpkg", "colpkg-legacy"))

    assert (report.collection, report.drill_items, report.cards) == ("collection.anki21", 1, None)
    assert history(study, "c-2") == [(from_ms(answered), 2, 3.0, True, False)]


def test_a_profile_folder_is_read_in_place_while_anki_has_it_open(study: Study, desk: Any, tmp_path: Path) -> None:
    answered = desk.answer(card_of(desk, "i-2"), 3)
    files = sorted(path for path in (tmp_path / "phone").iterdir() if path.is_file())
    before = [digest(path) for path in files]

    report = import_anki_package(study, tmp_path / "phone")

    assert [digest(path) for path in files] == before
    assert (report.collection, report.drill_reviews) == ("collection.anki2", 1)
    assert history(study, "i-2")[0][:2] == (from_ms(answered), 3)


@pytest.mark.parametrize("name", ["notes.apkg", "collection.anki2"])
def test_a_file_that_is_no_anki_collection_changes_nothing(study: Study, tmp_path: Path, name: str) -> None:
    import sqlite3

    source = tmp_path / name
    with sqlite3.connect(source) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER, flds TEXT)")
    before = digest(source)

    with pytest.raises(InteropError, match=f"^{source}: an SQLite database, but not an Anki collection"):
        import_anki_package(study, source, block="memory")

    assert digest(source) == before
    assert stored_reviews(study) == 0
    assert not study.paths.user_decks.exists() or not list(study.paths.user_decks.iterdir())
