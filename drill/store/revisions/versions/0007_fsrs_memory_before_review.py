"""7: the item's FSRS memory just before each review (NULL before its first), so calibration reads
FSRS's prediction for a review as SM-2's from the row. Rows written before this have none: the
partial index lists those with an earlier review (a before-state with a last day), which opening
replays once (reschedule.reviews_without_memory); kept up to date, it is empty."""

from drill.store.ddl import run

revision = "0007"
down_revision = "0006"

SCRIPT = """
ALTER TABLE review ADD COLUMN fsrs_stability_before FLOAT;
ALTER TABLE review ADD COLUMN fsrs_difficulty_before FLOAT;
CREATE INDEX ix_review_without_memory ON review (item_id)
    WHERE fsrs_stability_before IS NULL AND last_day_before IS NOT NULL;
"""


def upgrade() -> None:
    run(SCRIPT)
