"""17: a covering index of the items by kind, so the stats find the pitches, estimation families and
coding drills (the few items of a kind, or their count) by a seek rather than by reading every card
of the store: at 10,000 cards these reads were more than half of a short period's switch."""

from drill.store.ddl import run

revision = "0017"
down_revision = "0016"

SCRIPT = """
CREATE INDEX ix_item_kind ON item (kind, block, retired, suspended, id);
"""


def upgrade() -> None:
    run(SCRIPT)
