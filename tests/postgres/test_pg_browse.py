"""The card browser's reads and forget on PostgreSQL: every item's state, one item's history (a
review with what was typed and ticked), back to new with the reviews kept, unknown ids."""

from __future__ import annotations

from datetime import timedelta

from drill.store.browse_filter import ItemFilter, ItemIndex
from drill.study import Study


def test_rows_history_forget_and_unknown_ids(pg_url, small_paths, clock) -> None:
    small_paths.ensure()
    small_paths.config.write_text("leech_threshold = 1\n")
    study = Study.open(small_paths, clock)
    try:
        study.record(study.grade(study.cards(["m-1"])[0], 3, 9_000))
        clock.now += timedelta(days=1)
        study.record(study.grade(study.cards(["m-1"])[0], 1, 11_000, typed_answer="not sure", ticked=(1,)))
        study.suspend("c-2")
        rows = {row.item_id: row for row in study.browse()}
        assert list(rows) == ["m-1", "m-2", "c-1", "c-2", "i-1", "i-2"]
        m1 = rows["m-1"]
        assert (m1.reviews, m1.lapses, m1.leech, m1.due, m1.interval) == (2, 1, True, study.today, 0)
        assert rows["c-2"].suspended and rows["i-1"].is_new
        assert [row.item_id for row in ItemIndex(rows.values()).select(ItemFilter(due=True), study.today)] == ["m-1"]
        info = study.item_info("m-1")
        assert [(review.button, review.typed_answer, review.ticked) for review in info.reviews] == [
            (3, None, None), (1, "not sure", (1,))]
        assert info.reviews[0].reviewed_at.tzinfo is not None and info.reviews[1].interval_after == 0
        study.forget("m-1")
        assert study.browse_item("m-1").is_new and study.browse_item("m-1").reviews == 2
        assert study.unknown_ids(["m-1", "nope"]) == ["nope"]
    finally:
        study.close()
