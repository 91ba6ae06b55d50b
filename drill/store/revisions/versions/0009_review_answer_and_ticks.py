"""9: what the user said on a self-graded review, kept with it: the answer typed in the box (a
pitch) and the checklist points ticked (a JSON list of their positions); NULL when none."""

from drill.store.ddl import run

revision = "0009"
down_revision = "0008"

SCRIPT = """
ALTER TABLE review ADD COLUMN typed_answer TEXT;
ALTER TABLE review ADD COLUMN ticked TEXT;
"""


def upgrade() -> None:
    run(SCRIPT)
