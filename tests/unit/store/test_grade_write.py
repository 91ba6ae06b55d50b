"""A grade's write moves its item with one statement while the item still has the state the grade
was given from (new: NULL days and memory; then dates and FSRS floats), and reads the stored state
to rebase the grade only when another session moved the item since (drill.store.writes.insert_review)."""

from datetime import timedelta

from helpers.reviews import grade

from drill.store.item_states import current_state
from drill.study import Study
from drill.study.writes import write_grade


def test_a_grade_reads_the_stored_state_only_when_another_session_moved_the_item(
    small_paths, clock, monkeypatch
) -> None:
    read: list[str] = []
    monkeypatch.setattr(
        "drill.store.writes.current_state",
        lambda connection, item_id: read.append(item_id) or current_state(connection, item_id),
    )
    study = Study.open(small_paths, clock)
    try:
        for button in (3, 1, 4):
            grade(study, "m-1", button)
            clock.now += timedelta(days=1)
        assert read == []
        shown = study.reviews.cards(["m-1"])[0]
        grade(study, "m-1", 3)  # another session grades it while this one shows it
        write_grade(study, study.reviews.grade(shown, 3, 1000))
        assert read == ["m-1"]
        with study.engine.connect() as connection:
            counted = connection.exec_driver_sql("SELECT counted FROM review ORDER BY id DESC LIMIT 2").scalars().all()
        assert counted == [0, 1]  # rebased: the second grade of the day is not counted again
    finally:
        study.close()
