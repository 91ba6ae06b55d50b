"""4: indexes for the stats, covering what the figures read: reviews per study day, and per item
with the day (a block filter, the pitch ladder); estimation attempts per family over time and in
order of error (medians); a mock round's attempts."""

from drill.store.ddl import run

revision = "0004"
down_revision = "0003"

SCRIPT = """
CREATE INDEX ix_review_stats_day ON review (study_day, counted, interval_before, button, duration_ms);
CREATE INDEX ix_review_stats_item ON review (item_id, study_day, counted, interval_before, button, duration_ms);
CREATE INDEX ix_estimate_stats ON estimate_attempt (item_id, attempted_at, score, log_error, slip);
CREATE INDEX ix_estimate_error ON estimate_attempt (item_id, log_error, attempted_at);
CREATE INDEX ix_estimate_round ON estimate_attempt (mock_round_id);
"""


def upgrade() -> None:
    run(SCRIPT)
