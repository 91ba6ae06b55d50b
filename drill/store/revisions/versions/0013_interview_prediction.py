"""13: the score drill predicted for a mock interview as it started (drill.interview.forecast), kept
beside the score it came to; NULL for an interview started before."""

import sqlalchemy as sa
from alembic import op

from drill.store.column_types import Real

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.add_column("mock_interview", sa.Column("predicted_score", Real, nullable=True))
