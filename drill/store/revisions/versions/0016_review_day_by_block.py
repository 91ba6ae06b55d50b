"""16: a covering index of the day counters by block, so home's reviews per block (and the total)
read them in order of block rather than sorting every study day's row."""

from drill.store.ddl import run

revision = "0016"
down_revision = "0015"

SCRIPT = """
CREATE INDEX ix_review_day_block ON review_day (block, reviews);
"""


def upgrade() -> None:
    run(SCRIPT)
