"""11: item.siblings holds each item's effective sibling group (its deck's key, else a pitch's
topic, as drill.schedule.siblings.group says), and the queue's covering indexes carry it, so
building the queue still reads the indexes alone."""

from drill.store.ddl import run

revision = "0011"
down_revision = "0010"

SCRIPT = """
UPDATE item SET siblings = 'pitch:' || topic WHERE kind = 'pitch' AND siblings IS NULL;
DROP INDEX ix_item_due;
DROP INDEX ix_item_new;
CREATE INDEX ix_item_due ON item (retired, suspended, due_day, kind, block, position, id, siblings);
CREATE INDEX ix_item_new ON item (retired, suspended, last_review_day, kind, block, position, id, siblings);
"""


def upgrade() -> None:
    run(SCRIPT)
