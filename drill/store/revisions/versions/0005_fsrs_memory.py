"""5: FSRS memory per item, kept beside SM-2's whichever scheduler is in use (predicted recall,
switching schedulers), and small facts about the store (which scheduler set the due days)."""

from drill.store.ddl import run

revision = "0005"
down_revision = "0004"

SCRIPT = """
ALTER TABLE item ADD COLUMN fsrs_stability FLOAT;
ALTER TABLE item ADD COLUMN fsrs_difficulty FLOAT;
ALTER TABLE item ADD COLUMN fsrs_due_day DATE;
CREATE TABLE store_fact (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def upgrade() -> None:
    run(SCRIPT)
