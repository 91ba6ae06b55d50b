"""8: an item's errata: where the source notes are wrong and why, kept apart from the answer."""

from drill.store.ddl import run

revision = "0008"
down_revision = "0007"

SCRIPT = """
ALTER TABLE item ADD COLUMN errata TEXT;
"""


def upgrade() -> None:
    run(SCRIPT)
