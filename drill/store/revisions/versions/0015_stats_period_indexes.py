"""15: covering indexes for a stats period switch, so each figure reads the period's rows in the
order it needs rather than sorting them: estimation attempts in order of error (the whole
period's median), over time (the trend's buckets) and per family by slip; a coding drill's runs
per workspace (its attempts)."""

from drill.store.ddl import run

revision = "0015"
down_revision = "0014"

SCRIPT = """
CREATE INDEX ix_estimate_by_error ON estimate_attempt (log_error, attempted_at, item_id);
CREATE INDEX ix_estimate_time ON estimate_attempt (attempted_at, log_error, score, item_id);
CREATE INDEX ix_estimate_slip ON estimate_attempt (item_id, slip, attempted_at);
CREATE INDEX ix_coding_stats ON coding_attempt (item_id, workspace, finished_at, status, seconds, hints_used);
"""


def upgrade() -> None:
    run(SCRIPT)
