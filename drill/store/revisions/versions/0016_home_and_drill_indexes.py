"""16: covering indexes for home and the stats: the day counters by block, so home's reviews per
block (and the total) read them in order of block rather than sorting every study day's row; a
coding drill's runs by finish time, so its latest attempt in a period is found by a seek rather
than by reading every run of the drill."""

from drill.store.ddl import run

revision = "0016"
down_revision = "0015"

SCRIPT = """
CREATE INDEX ix_review_day_block ON review_day (block, reviews);
CREATE INDEX ix_coding_time ON coding_attempt (item_id, finished_at, workspace, status, seconds, hints_used);
"""


def upgrade() -> None:
    run(SCRIPT)
