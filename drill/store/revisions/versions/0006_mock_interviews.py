"""6: mock interviews (one countdown over grill, pitch, estimation and coding sections) and their
answers; a graded answer points at the review it also was."""

from drill.store.ddl import run

revision = "0006"
down_revision = "0005"

SCRIPT = """
CREATE TABLE mock_interview (
    id INTEGER PRIMARY KEY,
    started_at DATETIME NOT NULL,
    finished_at DATETIME,
    seconds_allowed INTEGER NOT NULL,
    seconds_used FLOAT,
    sections TEXT NOT NULL,
    grill_score FLOAT,
    pitch_score FLOAT,
    estimate_score FLOAT,
    coding_score FLOAT,
    score FLOAT,
    ended TEXT,
    abandoned BOOLEAN NOT NULL DEFAULT 0
);
CREATE TABLE mock_interview_answer (
    id INTEGER PRIMARY KEY,
    interview_id INTEGER NOT NULL REFERENCES mock_interview(id),
    position INTEGER NOT NULL,
    section TEXT NOT NULL,
    item_id TEXT NOT NULL REFERENCES item(id),
    review_id INTEGER REFERENCES review(id) ON DELETE SET NULL,
    answered_at DATETIME NOT NULL,
    button INTEGER,
    score FLOAT NOT NULL,
    seconds FLOAT NOT NULL,
    target_seconds INTEGER,
    answer TEXT,
    result TEXT,
    detail TEXT
);
CREATE INDEX ix_interview_answer ON mock_interview_answer (interview_id, position);
CREATE INDEX ix_interview_started ON mock_interview (started_at);
"""


def upgrade() -> None:
    run(SCRIPT)
