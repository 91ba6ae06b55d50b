"""10: steering. A review given in a cram or review-ahead session is logged with `cram` set (it
moved no schedule unless the user chose to reschedule); an item's optional sibling group (items
that give each other away are not shown the same day)."""

from drill.store.ddl import run

revision = "0010"
down_revision = "0009"

SCRIPT = """
ALTER TABLE review ADD COLUMN cram BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE item ADD COLUMN siblings TEXT;
"""


def upgrade() -> None:
    run(SCRIPT)
