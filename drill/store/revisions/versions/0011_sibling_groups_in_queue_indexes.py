"""11: item.siblings holds each item's effective sibling group (its deck's key, else a pitch's
topic, as drill.schedule.siblings.group says), and the queue's covering indexes carry it, so
building the queue still reads the indexes alone; lapses (drill.store.leeches) get a partial
index of their own, so counting them reads the lapses, not every review, and so do cram reviews."""

from drill.store.ddl import run

revision = "0011"
down_revision = "0010"

SCRIPT = """
UPDATE item SET siblings = 'pitch:' || topic WHERE kind = 'pitch' AND siblings IS NULL;
DROP INDEX ix_item_due;
DROP INDEX ix_item_new;
CREATE INDEX ix_item_due ON item (retired, suspended, due_day, kind, block, position, id, siblings);
CREATE INDEX ix_item_new ON item (retired, suspended, last_review_day, kind, block, position, id, siblings);
CREATE INDEX ix_review_lapse ON review (item_id) WHERE counted = TRUE AND button = 1 AND reps_before > 0;
CREATE INDEX ix_review_cram ON review (study_day, item_id, counted) WHERE cram = TRUE;
"""


def upgrade() -> None:
    run(SCRIPT)
