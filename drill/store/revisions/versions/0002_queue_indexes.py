"""2: indexes for the queue, the home counts and per-item history."""

from drill.store.ddl import run

revision = "0002"
down_revision = "0001"

SCRIPT = """
CREATE INDEX ix_item_due ON item (retired, suspended, due_day, kind, block, position, id);
CREATE INDEX ix_item_new ON item (retired, suspended, last_review_day, kind, block, position, id);
CREATE INDEX ix_review_item ON review (item_id, reviewed_at);
CREATE INDEX ix_review_day ON review (study_day);
"""


def upgrade() -> None:
    run(SCRIPT)
