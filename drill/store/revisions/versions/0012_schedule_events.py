"""12: changes made to a schedule by hand (a forget) are events in the item's history, kept beside its
reviews, so a replay of the history (a history import, an undo) applies them in their place."""

import sqlalchemy as sa
from alembic import op

from drill.store.column_types import Moment

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "schedule_event",
        sa.Column("id", sa.Integer(), sa.Identity(), primary_key=True),
        sa.Column("item_id", sa.Text(), sa.ForeignKey("item.id"), nullable=False),
        sa.Column("happened_at", Moment, nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
    )
    op.create_index("ix_schedule_event_item", "schedule_event", ["item_id", "happened_at"])
