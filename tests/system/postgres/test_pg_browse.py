"""The card browser's reads and forget on PostgreSQL: every item's state, one item's history (a
review with what was typed and ticked), back to new with the reviews kept, unknown ids."""

from __future__ import annotations

from datetime import timedelta

from drill.store.browse import item_info, item_row, item_rows, unknown_ids
from drill.store.browse_filter import ItemFilter, ItemIndex
from drill.store.writes import forget_item, set_suspended
from drill.study import Study
from drill.study.writes import write_grade


def test_rows_history_forget_and_unknown_ids(pg_url, small_paths, clock) -> None:
    small_paths.ensure()
    small_paths.config.write_text("leech_threshold = 1\n")
    study = Study.open(small_paths, clock)
    try:
        write_grade(study, study.reviews.grade(study.reviews.cards(["m-1"])[0], 3, 9_000))
        clock.now += timedelta(days=1)
        again = study.reviews.grade(study.reviews.cards(["m-1"])[0], 1, 11_000, typed_answer="not sure", ticked=(1,))
        write_grade(study, again)
        set_suspended(study.engine, "c-2", True)
        rows = {row.item_id: row for row in item_rows(study.engine, study.config.leech_threshold)}
        assert list(rows) == ["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"]
        m1 = rows["m-1"]
        assert (m1.reviews, m1.lapses, m1.leech, m1.due, m1.interval) == (2, 1, True, study.today, 0)
        assert rows["c-2"].suspended and rows["i-1"].is_new
        assert [row.item_id for row in ItemIndex(rows.values()).select(ItemFilter(due=True), study.today)] == ["m-1"]
        info = item_info(study.engine, "m-1", study.config.leech_threshold)
        assert [(review.button, review.typed_answer, review.ticked) for review in info.reviews] == [
            (3, None, None),
            (1, "not sure", (1,)),
        ]
        assert info.reviews[0].reviewed_at.tzinfo is not None and info.reviews[1].interval_after == 0
        forget_item(study.engine, "m-1", study.clock(), study.config.scheduler)
        row = item_row(study.engine, "m-1", study.config.leech_threshold)
        assert row is not None and row.is_new and row.reviews == 2
        assert unknown_ids(study.engine, ["m-1", "nope"]) == ["nope"]
    finally:
        study.close()
