"""The counters the review table's triggers keep (item.lapse_count, table review_day) equal a
recount of the reviews after any mix of grades, undos, forgets, history imports and items moving
block; and the migration counts an older store's reviews."""

from __future__ import annotations

import tempfile
from datetime import timedelta
from pathlib import Path

from helpers.clock import Clock
from helpers.content import TestPaths, write_deck
from helpers.reviews import sm2_study
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, create_engine, text

from drill.interop.history_csv import import_history
from drill.interop.history_format import card_id
from drill.store import migrations
from drill.study import Study
from drill.study.writes import write_grade, write_undo

ITEMS = ("m-1", "m-2", "c-1", "c-2", "i-1", "i-2")
BLOCKS = ("memory", "compute", "inference")
MATURE = 21  # drill.store.stats.scope.MATURE_DAYS
COUNTERS = "SELECT id, lapse_count FROM item ORDER BY id"
ITEM_RECOUNT = """SELECT item.id,
    COUNT(review.id) FILTER (WHERE review.counted AND review.button = 1 AND review.reps_before > 0)
    FROM item LEFT JOIN review ON review.item_id = item.id GROUP BY item.id ORDER BY item.id"""
DAYS = "SELECT * FROM review_day ORDER BY study_day, block"
DAY_RECOUNT = f"""SELECT study_day, block, COUNT(*), SUM(duration_ms),
    COUNT(*) FILTER (WHERE counted AND interval_before >= {MATURE}),
    COUNT(*) FILTER (WHERE counted AND interval_before >= {MATURE} AND button > 1),
    COUNT(*) FILTER (WHERE counted AND interval_before BETWEEN 1 AND {MATURE - 1}),
    COUNT(*) FILTER (WHERE counted AND interval_before BETWEEN 1 AND {MATURE - 1} AND button > 1)
    FROM review JOIN item ON item.id = review.item_id GROUP BY study_day, block ORDER BY study_day, block"""


def _rows(connection: Connection, sql: str) -> list[tuple]:
    return [tuple(row) for row in connection.execute(text(sql))]


def assert_counters_recount(connection: Connection) -> None:
    assert _rows(connection, COUNTERS) == _rows(connection, ITEM_RECOUNT)
    assert _rows(connection, DAYS) == _rows(connection, DAY_RECOUNT)


grade_step = st.tuples(st.just("grade"), st.sampled_from(ITEMS), st.integers(1, 4), st.integers(0, 60))
undo_step = st.tuples(st.just("undo"), st.none(), st.none(), st.none())
forget_step = st.tuples(st.just("forget"), st.sampled_from(ITEMS), st.none(), st.none())
import_step = st.tuples(st.just("import"), st.sampled_from(ITEMS), st.integers(1, 4), st.integers(1, 30))
move_step = st.tuples(st.just("move"), st.sampled_from(ITEMS), st.sampled_from(BLOCKS), st.none())
steps = st.lists(st.one_of(grade_step, undo_step, forget_step, import_step, move_step), min_size=1, max_size=25)


def _import(study: Study, folder: Path, item_id: str, button: int, days_back: int, clock: Clock) -> None:
    """A history file of three reviews of `item_id`, `days_back` days ago and the two days after."""
    start = clock.now - timedelta(days=days_back)
    lines = [
        f"{card_id(item_id)},{int((start + timedelta(days=n)).timestamp() * 1000)},{1 + (button + n) % 4},{700 + n}"
        for n in range(3)
    ]
    source = folder / "history.csv"
    source.write_text("card_id,review_time,review_rating,review_duration\n" + "\n".join(lines) + "\n")
    import_history(study, source)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_counters_equal_a_recount_after_grades_undos_forgets_imports_and_moves(steps) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        decks = root / "content"
        write_deck(decks, "a.toml", [("m-1", "memory"), ("m-2", "memory"), ("c-1", "compute")])
        write_deck(decks, "b.toml", [("c-2", "compute"), ("i-1", "inference"), ("i-2", "inference")])
        clock = Clock()
        study = sm2_study(TestPaths(root / "home", decks), clock)
        given_grades = []
        try:
            for kind, item_id, value, hours in steps:
                if kind == "grade":
                    clock.now += timedelta(hours=hours)
                    given_grades.append(study.reviews.grade(study.reviews.cards([item_id])[0], value, 1500))
                    write_grade(study, given_grades[-1])
                elif kind == "undo" and given_grades:
                    write_undo(study, given_grades.pop())
                elif kind == "forget":
                    study.reviews.save_forget(item_id)
                    study.drain()
                elif kind == "import":
                    _import(study, root, item_id, value, hours, clock)
                elif kind == "move":
                    with study.engine.begin() as connection:  # what a content edit's sync writes
                        connection.execute(
                            text("UPDATE item SET block = :block WHERE id = :id"), {"block": value, "id": item_id}
                        )
                with study.engine.connect() as connection:
                    assert_counters_recount(connection)
        finally:
            study.close()


def test_the_migration_counts_the_reviews_an_older_store_holds(tmp_path, small_paths, clock) -> None:
    """A store at revision 0013 with reviews: upgrading it counts them, and the triggers go on from there."""
    study = sm2_study(small_paths, clock)
    for button in (3, 1, 1, 4):
        clock.now += timedelta(days=2)
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], button, 900))
    study.close()
    engine = create_engine(f"sqlite:///{small_paths.database}")
    try:
        with engine.begin() as connection:  # back to 0013: no counters, no triggers
            for trigger in _rows(connection, "SELECT name FROM sqlite_master WHERE type = 'trigger'"):
                connection.execute(text(f"DROP TRIGGER {trigger[0]}"))
            connection.execute(text("DROP TABLE review_day"))
            connection.execute(text("ALTER TABLE item DROP COLUMN lapse_count"))
            for index in ("ix_estimate_by_error", "ix_estimate_time", "ix_estimate_slip", "ix_coding_stats"):  # 0015's
                connection.execute(text(f"DROP INDEX {index}"))
            connection.execute(text("DROP INDEX ix_coding_time"))  # 0016's (its other went with review_day)
            connection.execute(text("DROP INDEX ix_item_kind"))  # 0017's
            connection.execute(text("UPDATE alembic_version SET version_num = '0013'"))
        with engine.begin() as connection:
            assert migrations.migrate(connection) == 4  # 0014, 0015, 0016, then 0017
            assert_counters_recount(connection)
            assert _rows(connection, "SELECT lapse_count FROM item WHERE id = 'm-1'") == [(1,)]
            assert _rows(connection, "SELECT SUM(reviews) FROM review_day") == [(4,)]
            connection.execute(text("DELETE FROM review WHERE item_id = 'm-1'"))
            assert_counters_recount(connection)
            assert _rows(connection, DAYS) == []
    finally:
        engine.dispose()
